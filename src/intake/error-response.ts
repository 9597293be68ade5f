import type { ServerResponse } from 'node:http';

/** Error codes the intake answers with, in the service's own `{error:{code,message}}` shape. */
export const INTAKE_ERROR_CODES = [
  'unknown_hook',
  'payload_too_large',
  'unreadable_body',
  'unsupported_encoding',
  'missing_signature',
  'malformed_signature',
  'missing_timestamp',
  'malformed_timestamp',
  'stale_timestamp',
  'signature_mismatch',
  'invalid_json',
  'invalid_envelope',
  'envelope_field_too_long',
  'envelope_field_control_character',
  'not_found',
  'busy',
  'internal_error',
] as const;
export type IntakeErrorCode = (typeof INTAKE_ERROR_CODES)[number];

/**
 * How the intake answered a delivery, in fixed words (the metrics' `outcome` label): stored (`accepted`), a
 * repeat (`duplicate`), the service's `ping`, or the code it was refused with.
 */
export const DELIVERY_OUTCOMES = [
  'accepted',
  'duplicate',
  'ping',
  ...INTAKE_ERROR_CODES.filter((code) => code !== 'not_found'),
] as const;
export type DeliveryOutcome = 'accepted' | 'duplicate' | 'ping' | IntakeErrorCode;

/** Answers `status` with `body` as JSON (the webhook route runs on Node's own response, not Express's). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

/** Sends `{ error: { code, message } }` with `status` and returns the code. Messages never echo what the caller sent. */
export function sendError<Code extends IntakeErrorCode>(
  res: ServerResponse,
  status: number,
  code: Code,
  message: string,
): Code {
  sendJson(res, status, { error: { code, message } });
  return code;
}

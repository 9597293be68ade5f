import type { Response } from 'express';

/** Error codes the intake answers with, in the service's own `{error:{code,message}}` shape. */
export type IntakeErrorCode =
  | 'unknown_hook'
  | 'payload_too_large'
  | 'unreadable_body'
  | 'unsupported_encoding'
  | 'missing_signature'
  | 'malformed_signature'
  | 'missing_timestamp'
  | 'malformed_timestamp'
  | 'stale_timestamp'
  | 'signature_mismatch'
  | 'invalid_json'
  | 'invalid_envelope'
  | 'not_found'
  | 'busy'
  | 'internal_error';

/** Sends `{ error: { code, message } }` with `status`. Messages never echo what the caller sent. */
export function sendError(res: Response, status: number, code: IntakeErrorCode, message: string): void {
  res.status(status).json({ error: { code, message } });
}

import type { Request, RequestHandler, Response } from 'express';

import type { Logger } from '../logger.js';
import type { HookRepository } from '../store/hooks.js';
import type { SecretBox } from '../store/secret-box.js';
import { classifyDelivery, EnvelopeSchema } from '../upstream/schemas.js';
import { verifyDelivery, type SignatureFailure } from '../upstream/signature.js';
import type { DeliveryAcceptor } from './accept-delivery.js';
import { sendError } from './error-response.js';
import type { HookActivity } from './hook-activity.js';
import { BodyReadError, readRawBody } from './read-raw-body.js';

/** Bodies larger than this are refused with 413 before they are verified (the service sends small JSON). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The event name of the service's test ping (POST /webhooks/:id/test). Its shape is undocumented; a ping is
 * verified, recorded for /webhook test and answered, but not posted to the feed: it is not a server event.
 */
export const PING_EVENT = 'ping';

export interface WebhookRouteDeps {
  hooks: HookRepository;
  acceptor: DeliveryAcceptor;
  secrets: SecretBox;
  /** Milliseconds since the Unix epoch. */
  clock: () => number;
  logger: Logger;
  activity: HookActivity;
}

const SIGNATURE_MESSAGES: Record<SignatureFailure, string> = {
  missing_signature: 'the x-service-signature header is missing',
  malformed_signature: 'x-service-signature must be sha256= followed by 64 lowercase hex digits',
  missing_timestamp: 'the x-service-timestamp header is missing',
  malformed_timestamp: 'x-service-timestamp must be whole seconds since the Unix epoch, digits only',
  stale_timestamp: 'x-service-timestamp is 300 s or more away from our clock (a replay, or a clock out of sync)',
  signature_mismatch: 'the signature does not match the body (is the webhook secret up to date?)',
};

/**
 * The handler of POST /webhooks/:hookId, in the order DESIGN.md fixes: find the hook, read the raw body,
 * verify, parse, validate, dedupe, write to the outbox, answer. Nothing parses the body before verification.
 * One handler, reading the body itself: this is the hot path, and body-parser's generality costs time here.
 */
export function createWebhookHandler(deps: WebhookRouteDeps): RequestHandler {
  return async (req, res) => {
    const hook = await deps.hooks.get(String(req.params.hookId));
    if (!hook) {
      // Not read: whatever was sent is discarded with the connection's next request.
      req.resume();
      return sendError(res, 404, 'unknown_hook', 'no webhook is registered at this address');
    }

    let rawBody: Buffer;
    try {
      rawBody = await readRawBody(req, MAX_BODY_BYTES);
    } catch (error) {
      return refuseUnreadBody(req, res, error);
    }

    const now = deps.clock();
    const verdict = verifyDelivery({
      secret: deps.secrets.open(hook.secret),
      rawBody,
      signatureHeader: req.get('x-service-signature'),
      timestampHeader: req.get('x-service-timestamp'),
      now,
    });
    if (!verdict.ok) {
      deps.logger.warn({ hookId: hook.hookId, reason: verdict.reason }, 'delivery refused');
      deps.activity.recordRefused(hook.hookId, verdict.reason, now);
      return sendError(res, 401, verdict.reason, SIGNATURE_MESSAGES[verdict.reason]);
    }

    const text = rawBody.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return sendError(res, 400, 'invalid_json', 'the body is not JSON');
    }
    const envelope = EnvelopeSchema.safeParse(json);
    if (!envelope.success) {
      return sendError(res, 400, 'invalid_envelope', 'the body must be a JSON object with string "id" and "event"');
    }

    if (envelope.data.event === PING_EVENT) {
      deps.activity.recordAccepted(hook.hookId, PING_EVENT, now);
      res.status(204).end();
      return;
    }
    const delivery = classifyDelivery(envelope.data);
    if (delivery.kind === 'mismatch') {
      deps.logger.warn(
        { hookId: hook.hookId, event: envelope.data.event, problem: delivery.problem },
        'delivery kept for plain rendering',
      );
    }
    const outcome = await deps.acceptor.accept({
      hookId: hook.hookId,
      guildId: hook.guildId,
      deliveryId: envelope.data.id,
      event: envelope.data.event,
      render: delivery.kind === 'event' ? 'event' : 'plain',
      rawBody: text,
      receivedAt: now,
    });
    deps.activity.recordAccepted(hook.hookId, envelope.data.event, now);
    if (outcome === 'duplicate') {
      res.status(200).json({ status: 'duplicate' });
      return;
    }
    res.status(204).end();
  };
}

function refuseUnreadBody(req: Request, res: Response, error: unknown): void {
  const reason = error instanceof BodyReadError ? error.reason : 'aborted';
  // The rest of an oversized body is not worth reading: answer, then drop the connection.
  res.set('connection', 'close');
  req.resume();
  if (reason === 'too_large') return sendError(res, 413, 'payload_too_large', 'the body is larger than 1 MiB');
  if (reason === 'encoded')
    return sendError(res, 415, 'unsupported_encoding', 'send the body without Content-Encoding');
  return sendError(res, 400, 'unreadable_body', 'the body could not be read');
}

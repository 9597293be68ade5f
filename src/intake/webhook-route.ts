import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from '../logger.js';
import type { HookRecord, HookRepository } from '../store/hooks.js';
import type { SecretBox } from '../store/secret-box.js';
import { classifyDelivery, EnvelopeSchema } from '../upstream/schemas.js';
import { verifyDelivery, type SignatureFailure } from '../upstream/signature.js';
import type { DeliveryAcceptor } from './accept-delivery.js';
import type { HookActivity } from './hook-activity.js';
import { sendError } from './error-response.js';

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
 * The handlers of POST /webhooks/:hookId, in the order DESIGN.md fixes: find the hook, read the raw body,
 * verify, parse, validate, dedupe, write to the outbox, answer. Nothing parses the body before verification.
 */
export function createWebhookHandlers(deps: WebhookRouteDeps): RequestHandler[] {
  const findHook: RequestHandler = async (req, res, next) => {
    const hook = await deps.hooks.get(String(req.params.hookId));
    if (!hook) return sendError(res, 404, 'unknown_hook', 'no webhook is registered at this address');
    res.locals.hook = hook;
    next();
  };

  // Whatever the Content-Type: the signature covers the bytes, so we take the bytes.
  const readRawBody = express.raw({ type: () => true, limit: MAX_BODY_BYTES });

  const handleDelivery: RequestHandler = async (req, res) => {
    const hook = res.locals.hook as HookRecord;
    const rawBody: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
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
      deps.logger.warn({ hookId: hook.hookId, event: envelope.data.event, problem: delivery.problem }, 'delivery kept for plain rendering');
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

  return [findHook, readRawBody, handleDelivery];
}

/** Turns body-parser's errors (too large, aborted, bad encoding) into the intake's error shape. */
export function handleBodyErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return sendError(res, 413, 'payload_too_large', 'the body is larger than 1 MiB');
  if (typeof type === 'string' && (type.startsWith('request.') || type.startsWith('encoding.') || type === 'charset.unsupported')) {
    return sendError(res, 400, 'unreadable_body', 'the body could not be read');
  }
  next(error);
}

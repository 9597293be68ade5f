import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Logger } from '../base/logger.js';
import type { AcceptOutcome } from '../store/deliveries.js';
import type { DeliveryIntake } from '../store/delivery-intake.js';
import type { HookActivityStore } from '../store/hook-activity.js';
import type { HookStore } from '../store/hooks.js';
import type { SecretBox } from '../store/secret-box.js';
import { routingKeysOf } from '../upstream/routing-keys.js';
import { EnvelopeSchema, PING_EVENT } from '../upstream/schemas.js';
import { verifyDelivery, type SignatureFailure } from '../upstream/signature.js';
import { checkEnvelopeFields } from './envelope-limits.js';
import { sendError, sendJson, type DeliveryOutcome } from './error-response.js';
import type { IntakeFailures } from './intake-failures.js';
import { readRawBody, type BodyReadFailure } from './read-raw-body.js';
import { SigningKeys } from './signing-keys.js';

/** Bodies larger than this are refused with 413 before they are verified (the service sends small JSON). */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Deliveries this process lets wait for the store at once. Past it the intake answers 503 and the service
 * retries later: a store that has fallen behind then costs a bounded amount of memory, not one held request and
 * body per delivery the service sends meanwhile.
 */
export const MAX_PENDING_ACCEPTS = 1000;
/** What a 503 asks the service to wait before it retries, in seconds. */
export const BUSY_RETRY_AFTER_S = 5;

export interface WebhookRouteDeps {
  hooks: HookStore;
  deliveries: Pick<DeliveryIntake, 'accept'>;
  activity: Pick<HookActivityStore, 'noteAccepted' | 'noteRefused'>;
  secrets: SecretBox;
  /** Deliveries this process failed to store, per hook: the feed's health alerts count them. */
  intakeFailures: Pick<IntakeFailures, 'failed' | 'stored'>;
  /** Milliseconds since the Unix epoch. */
  clock: () => number;
  logger: Logger;
  /** Default {@link MAX_PENDING_ACCEPTS}; tests lower it. */
  maxPendingAccepts?: number;
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
 * Answers one delivery to `hookId` and resolves with how (the metrics' outcome); rejects only when the store failed
 * (create-app.ts answers 500 then).
 */
export type WebhookHandler = (req: IncomingMessage, res: ServerResponse, hookId: string) => Promise<DeliveryOutcome>;

/**
 * The handler of POST /webhooks/:hookId, in the order DESIGN.md fixes: find the hook, read the raw body,
 * verify, parse, validate, store (the store dedupes), answer. Nothing parses the body before verification.
 * One handler on Node's own request and response, reading the body itself: this is the hot path, and Express's
 * per-request work and body-parser's generality cost time here (create-app.ts).
 */
export function createWebhookHandler(deps: WebhookRouteDeps): WebhookHandler {
  const keys = new SigningKeys(deps.secrets);
  const maxPending = deps.maxPendingAccepts ?? MAX_PENDING_ACCEPTS;
  // What the feed's health alert says of a delivery answered 503 because too many waited for the store.
  const busyDetail = `the store fell behind: ${maxPending} deliveries waited to be stored, and the next were answered 503`;
  let pending = 0;
  // One warning per time the store falls behind, not one per delivery refused meanwhile.
  let busyLogged = false;
  return async (req, res, hookId) => {
    const hook = await deps.hooks.get(hookId);
    if (!hook) {
      keys.forget(hookId);
      // Not read: whatever was sent is discarded with the connection's next request.
      req.resume();
      return refuseUnknownHook(res);
    }

    const read = await readRawBody(req, MAX_BODY_BYTES);
    if (!read.ok) return refuseUnreadBody(req, res, read.reason);
    const rawBody = read.body;

    const now = deps.clock();
    const verdict = verifyDelivery({
      secret: keys.keyOf(hook),
      rawBody,
      signatureHeader: headerOf(req, 'x-service-signature'),
      timestampHeader: headerOf(req, 'x-service-timestamp'),
      now,
    });
    if (!verdict.ok) {
      deps.logger.warn({ hookId: hook.hookId, reason: verdict.reason }, 'delivery refused');
      // Counted for /webhook list and the feed's health; a store too broken to count it changes nothing here.
      await deps.activity
        .noteRefused(hook.hookId, verdict.reason, now)
        .catch((error: unknown) =>
          deps.logger.error({ err: error, hookId: hook.hookId }, 'recording a refusal failed'),
        );
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
    const problem = checkEnvelopeFields(envelope.data);
    if (problem) return sendError(res, 400, problem.code, problem.message);

    if (envelope.data.event === PING_EVENT) {
      if (!(await deps.activity.noteAccepted(hook.hookId, PING_EVENT, now))) {
        keys.forget(hook.hookId);
        return refuseUnknownHook(res);
      }
      answerNoContent(res);
      return 'ping';
    }
    if (pending >= maxPending) {
      if (!busyLogged) {
        busyLogged = true;
        deps.logger.warn({ pending }, 'the store falls behind: deliveries are answered 503 until it catches up');
      }
      // The service counts a 503 toward switching the webhook off, as it does a 500: so does the feed's health alert.
      // The detail goes as text: no Error (and its stack) made per delivery refused while the store is behind.
      deps.intakeFailures.failed(hook, busyDetail, now);
      res.setHeader('retry-after', String(BUSY_RETRY_AFTER_S));
      return sendError(res, 503, 'busy', 'too many deliveries are waiting to be stored; retry later');
    }
    // Only the envelope is checked here: the event's own schema is applied once, where the entry is rendered.
    // The store's unique key on (hook, delivery id) makes a repeat, or a concurrent copy, a duplicate.
    let outcome: AcceptOutcome;
    pending += 1;
    try {
      outcome = await deps.deliveries.accept(
        {
          hookId: hook.hookId,
          guildId: hook.guildId,
          deliveryId: envelope.data.id,
          event: envelope.data.event,
          ...routingKeysOf(envelope.data),
          rawBody: text,
          receivedAt: now,
        },
        // The hook above may be a cached copy: the store stores the delivery only if the hook is still there.
        { requireHook: true },
      );
    } catch (error) {
      // Answered 500 by the error handler; the service counts it toward switching the webhook off, so do we.
      deps.intakeFailures.failed(hook, error, now);
      throw error;
    } finally {
      pending -= 1;
      if (pending === 0) busyLogged = false;
    }
    if (outcome === 'unknown-hook') {
      // Removed since it was cached (by /webhook remove, or by the bot leaving the server).
      keys.forget(hook.hookId);
      return refuseUnknownHook(res);
    }
    deps.intakeFailures.stored(hook.hookId);
    if (outcome === 'duplicate') {
      sendJson(res, 200, { status: 'duplicate' });
      return 'duplicate';
    }
    answerNoContent(res);
    return 'accepted';
  };
}

function answerNoContent(res: ServerResponse): void {
  res.statusCode = 204;
  res.end();
}

/** A header's value (Node joins one sent twice with a comma: a malformed value, refused as such). */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function refuseUnknownHook(res: ServerResponse): DeliveryOutcome {
  return sendError(res, 404, 'unknown_hook', 'no webhook is registered at this address');
}

function refuseUnreadBody(req: IncomingMessage, res: ServerResponse, reason: BodyReadFailure): DeliveryOutcome {
  // The rest of an oversized body is not worth reading: answer, then drop the connection.
  res.setHeader('connection', 'close');
  req.resume();
  switch (reason) {
    case 'too_large':
      return sendError(res, 413, 'payload_too_large', 'the body is larger than 1 MiB');
    case 'encoded':
      return sendError(res, 415, 'unsupported_encoding', 'send the body without Content-Encoding');
    case 'aborted':
      // The client is most likely gone; the answer is for a proxy that may still be listening.
      return sendError(res, 400, 'unreadable_body', 'the body could not be read');
  }
}

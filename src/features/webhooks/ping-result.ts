import { z } from 'zod';

import type { HookOutcome } from '../../store/hook-activity.js';

/**
 * What the service said about a ping or an enable, as far as its answer tells: the documentation does not show
 * the answer's shape (upstream-api.md §4.2), so every field is optional and an unknown shape tells nothing.
 */
export interface ServiceReport {
  /** Whether the ping got a 2xx from the webhook's address. */
  delivered: boolean | undefined;
  /** The HTTP status the address answered the ping with. */
  status: number | undefined;
  enabled: boolean | undefined;
}

const AnswerSchema = z.looseObject({
  enabled: z.boolean().optional().catch(undefined),
  webhook: z
    .looseObject({ enabled: z.boolean().optional().catch(undefined) })
    .optional()
    .catch(undefined),
  delivery: z
    .looseObject({
      ok: z.boolean().optional().catch(undefined),
      status: z.number().int().nullable().optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
});

/** Reads a service answer for the little it may say about delivery and on/off state. */
export function readServiceReport(answer: unknown): ServiceReport {
  const parsed = AnswerSchema.safeParse(answer);
  if (!parsed.success) return { delivered: undefined, status: undefined, enabled: undefined };
  const { delivery, webhook, enabled } = parsed.data;
  return { delivered: delivery?.ok, status: delivery?.status ?? undefined, enabled: enabled ?? webhook?.enabled };
}

export interface PingFacts {
  /** What the intake saw, or undefined when nothing arrived in time. */
  outcome: HookOutcome | undefined;
  report: ServiceReport;
  /** From asking the service to ping to the ping's arrival. */
  elapsedMs: number;
  webhook: string;
  publicUrl: string;
  timeoutMs: number;
}

/** The answer of /webhook test: proof that the ping arrived and verified, or what to check. */
export function describePing(facts: PingFacts): string {
  const { outcome, webhook } = facts;
  if (outcome?.ok) {
    return `Ping received and verified in ${Math.max(0, Math.round(facts.elapsedMs))} ms: webhook \`${webhook}\` reaches this bot and its signature holds.`;
  }
  if (outcome) {
    switch (outcome.reason) {
      case 'signature_mismatch':
        return (
          `A ping arrived but its signature does not match: the secret stored here for \`${webhook}\` is out of date. ` +
          'Remove it with /webhook remove and register a new one.'
        );
      case 'stale_timestamp':
        return "A ping arrived but its timestamp is 5 minutes or more away from this bot's clock: set the host's clock right (NTP) and test again.";
      case 'missing_signature':
      case 'malformed_signature':
      case 'missing_timestamp':
      case 'malformed_timestamp':
        return (
          `A request arrived without a valid signature (${outcome.reason.replace(/_/g, ' ')}): ` +
          'is a proxy between the service and this bot changing or dropping headers?'
        );
    }
  }
  return describeSilence(facts);
}

function describeSilence(facts: PingFacts): string {
  const { report, webhook, publicUrl } = facts;
  if (report.enabled === false) {
    return `The service says webhook \`${webhook}\` is switched off: fix what made deliveries fail, run /webhook enable, then test again.`;
  }
  const reach = `Check that ${publicUrl} reaches this bot over HTTPS from the internet, and that requests to ${publicUrl}/webhooks/… are passed on to it.`;
  if (report.delivered === true) {
    return `The service says its ping was answered, but not by this bot: does PUBLIC_URL (${publicUrl}) point at this bot? ${reach}`;
  }
  const seconds = Math.round(facts.timeoutMs / 1000);
  if (report.delivered === false) {
    const how =
      report.status === undefined
        ? 'could not deliver it (no connection or no answer)'
        : `got HTTP ${report.status} from the address`;
    return `No ping reached this bot: the service ${how}. ${reach}`;
  }
  return `No ping reached this bot within ${seconds} s. ${reach} If it still fails, the service may have switched the webhook off: /webhook enable.`;
}

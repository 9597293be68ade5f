import { z } from 'zod';

import { relativeTime } from '../../discord/relative-time.js';
import { formatDuration } from '../../embeds/time.js';
import type { DocumentStore } from '../../store/documents.js';
import type { StoredHook } from '../../store/hooks.js';
import { requireServiceId, webhookName } from '../webhooks/index.js';
import { probeWebhook, tryToSwitchOn, type ProbeDeps } from './probe-webhook.js';

/** Down longer than this, the bot proves every webhook when it starts again (the service retries for a while). */
export const DOWNTIME_WORTH_CHECKING_MS = 5 * 60 * 1000;
/** How often the running bot writes its heartbeat. */
export const HEARTBEAT_EVERY_MS = 60 * 1000;

const HEARTBEAT_KIND = 'heartbeat';
const HEARTBEAT_KEY = 'bot';
const RECOVERY_KIND = 'recovery';

/** What the bot did for one server after its own downtime: shown in the alert channel and by /status. */
export const RecoveryReportSchema = z.object({
  guildId: z.string(),
  downSince: z.number(),
  backAt: z.number(),
  lines: z.array(z.string()),
});
export type RecoveryReport = z.infer<typeof RecoveryReportSchema>;

/** The heartbeat: written every minute by the process running the health monitor, read at its start. */
export class Heartbeat {
  constructor(private readonly documents: DocumentStore) {}

  async last(): Promise<number | undefined> {
    const stored = await this.documents.get(HEARTBEAT_KIND, HEARTBEAT_KEY);
    return typeof stored === 'number' ? stored : undefined;
  }

  async beat(at: number): Promise<void> {
    await this.documents.update(HEARTBEAT_KIND, HEARTBEAT_KEY, () => at);
  }
}

/** The last recovery report of each server, for /status. */
export async function readRecoveryReport(
  documents: DocumentStore,
  guildId: string,
): Promise<RecoveryReport | undefined> {
  const stored = await documents.get(RECOVERY_KIND, guildId);
  return stored === undefined ? undefined : RecoveryReportSchema.parse(stored);
}

export async function saveRecoveryReport(documents: DocumentStore, report: RecoveryReport): Promise<void> {
  await documents.update(RECOVERY_KIND, report.guildId, () => RecoveryReportSchema.parse(report));
}

/**
 * After the bot's own downtime, each webhook is proved with a test ping: while we were down the service's
 * deliveries failed and may have switched it off. Where the ping does not arrive, the webhook is switched on
 * and tested again. Returns one line per webhook saying what was found and done.
 */
export async function proveWebhooks(deps: ProbeDeps, hooks: readonly StoredHook[]): Promise<string[]> {
  const lines: string[] = [];
  for (const stored of hooks) {
    if (stored.webhookId === null) continue;
    const hook = requireServiceId(stored);
    const name = `\`${webhookName(hook)}\``;
    const first = await probeWebhook(deps, hook);
    if (first.arrived) {
      lines.push(`${name}: test ping arrived, nothing to do.`);
      continue;
    }
    const switched = await tryToSwitchOn(deps, hook);
    if (!switched.on) {
      lines.push(`${name}: test ping did not arrive (${first.text}) and re-enabling failed: ${switched.text}`);
      continue;
    }
    const second = await probeWebhook(deps, hook);
    lines.push(
      second.arrived
        ? `${name}: test ping did not arrive; re-enabled, and the next test ping arrived.`
        : `${name}: test ping did not arrive; re-enabled, but the next one did not arrive either: ${second.text}`,
    );
  }
  return lines;
}

/** The recovery report as one message's text. */
export function describeRecovery(report: RecoveryReport): { title: string; description: string } {
  return {
    title: `Back after ${formatDuration((report.backAt - report.downSince) / 1000)} down`,
    description: [
      `The bot was not running from ${relativeTime(report.downSince)} to ${relativeTime(report.backAt)}; deliveries sent meanwhile failed and the service may have switched webhooks off. Each webhook was tested:`,
      ...report.lines.map((line) => `• ${line}`),
    ].join('\n'),
  };
}

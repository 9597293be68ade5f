import { backoffDelay, type BackoffPolicy } from '../../base/backoff.js';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { RerunPerKey } from '../../base/rerun-per-key.js';
import type { Timers } from '../../base/timers.js';
import { truncateText } from '../../base/truncate-text.js';
import { describeDiscordError } from '../../discord/posting/classify-discord-error.js';
import type { FoundMessage } from '../../discord/posting/find-post.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import { postWrittenDown, type EarlierPostDeps } from '../../discord/posting/post-once.js';
import type { Poster } from '../../discord/posting/poster.js';
import type { AlertSettingsStore } from './alert-settings.js';
import type { AlertMessage, Incident, IncidentStore } from './incidents.js';
import { renderAlert, type AlertPayload } from './render-alert.js';

export interface AlertDeskDeps extends EarlierPostDeps {
  incidents: IncidentStore;
  settings: AlertSettingsStore;
  /** Posts with a nonce (enforce_nonce) and edits in place. */
  poster: Poster;
  clock: Clock;
  logger: Logger;
  /** Where a failed sync waits for its retry; without them, a failed sync waits for the incident's next change. */
  timers?: Timers | undefined;
  /** How long a failed sync waits for its retry (default 30 s doubling to 30 min). */
  backoff?: BackoffPolicy | undefined;
  /** Told each time an alert's sync failed and it backed off (the metrics). */
  onBackoff?: (() => void) | undefined;
}

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 30_000, capMs: 30 * 60 * 1000 };

/** An incident whose last sync failed: its failures in a row, and the timer of its retry. */
interface Retry {
  failures: number;
  timer: unknown;
}

/**
 * Keeps each incident's one alert message in step with the incident: posts it once, edits it as it evolves,
 * edits it to resolved and then forgets the incident. The nonce is written down before the post (with when, and
 * the title the post carries), so a crash or a lost answer between Discord's post and our record of it resends
 * under the same nonce and Discord answers with the first message; a resend later than Discord keeps nonces
 * looks for that message first (post-once.ts). Syncs of one incident never overlap; a change during one runs
 * another after it, so many changes in a burst cost few edits.
 */
export class AlertDesk {
  private readonly syncs = new RerunPerKey((key) =>
    this.syncOnce(key).then(
      () => this.succeeded(key),
      (error: unknown) => this.backOff(key, error),
    ),
  );
  private readonly retries = new Map<string, Retry>();
  private stopped = false;

  constructor(private readonly deps: AlertDeskDeps) {}

  /** No retry is scheduled any more; those waiting are dropped (a restart syncs every incident anyway). */
  stop(): void {
    this.stopped = true;
    for (const retry of this.retries.values()) this.deps.timers?.clearTimeout(retry.timer);
    this.retries.clear();
  }

  /** Lets retries be scheduled again (the monitor started again). */
  resume(): void {
    this.stopped = false;
  }

  /**
   * Brings the alert message of incident `key` up to date; never rejects (a failure is logged). While its last
   * sync failed and it backs off, the retry brings it up to date instead, unless `now` (an admin set a new alert
   * channel: worth a try at once).
   */
  sync(key: string, now = false): Promise<void> {
    if (!now && this.retries.has(key)) return Promise.resolve();
    return this.syncs.run(key);
  }

  /**
   * Posts a one-off message (not an incident) in an alert channel; the nonce parts name the occasion, so a
   * retry of the same occasion lands on the same message. A failure is logged.
   */
  async announce(channelId: string, text: { title: string; description: string }, occasion: string[]): Promise<void> {
    const payload = {
      embeds: [
        { title: truncateText(text.title, 256), description: truncateText(text.description, 4096), color: 0x5865f2 },
      ],
      allowed_mentions: { parse: [] },
    };
    try {
      await this.deps.poster.post(channelId, payload, makeCardNonce(occasion));
    } catch (error) {
      this.deps.logger.warn({ channelId, err: { message: describeDiscordError(error) } }, 'announcement not posted');
    }
  }

  private succeeded(key: string): void {
    const retry = this.retries.get(key);
    if (!retry) return;
    this.deps.timers?.clearTimeout(retry.timer);
    this.retries.delete(key);
  }

  /**
   * A sync failed (the alert channel refuses the bot, Discord fails): logged, and tried again later, later each
   * time, whatever else changes meanwhile; the other incidents' alerts, of this server and the others, go on.
   */
  private backOff(key: string, error: unknown): void {
    const { timers } = this.deps;
    const failures = (this.retries.get(key)?.failures ?? 0) + 1;
    const retryInMs = backoffDelay(failures, this.deps.backoff ?? DEFAULT_BACKOFF);
    this.deps.logger.warn(
      { incident: key, failures, retryInMs, err: { message: describeDiscordError(error) } },
      'alert not updated; tried again later',
    );
    this.deps.onBackoff?.();
    if (!timers || this.stopped) return;
    timers.clearTimeout(this.retries.get(key)?.timer);
    const timer = timers.setTimeout(() => void this.sync(key, true), retryInMs);
    this.retries.set(key, { failures, timer });
  }

  /** Resolves when every sync under way has finished (tests, shutdown). */
  async settled(): Promise<void> {
    await this.syncs.settled();
  }

  private async syncOnce(key: string): Promise<void> {
    const incident = await this.deps.incidents.get(key);
    if (!incident) return;
    const settings = await this.deps.settings.get(incident.guildId);
    if (!settings || (incident.message === null && incident.resolvedAt !== null)) {
      // Nowhere to post, or resolved before it was ever posted: a resolved incident has nothing left to say.
      if (incident.resolvedAt !== null) await this.forget(key, incident);
      return;
    }
    const payload = renderAlert(incident, settings.roleId);
    let message = incident.message;
    if (message === null) {
      message = this.writeDown(settings.channelId, nonceOf(key, incident.openedAt), payload);
      const written = message;
      await this.deps.incidents.update(key, (current) =>
        current && current.openedAt === incident.openedAt && current.message === null
          ? { ...current, message: written }
          : current,
      );
    }
    if (message.messageId === null) {
      await this.post(key, incident, message, payload);
      // A nonce written down by an earlier sync may have been posted then: Discord answers with that first
      // message as it was, so it is brought up to date by an edit.
      if (incident.message !== null) void this.syncs.run(key);
      return;
    }
    const edited = await this.deps.poster.edit(message.channelId, message.messageId, payload);
    if (edited === 'gone') {
      // Deleted in Discord: a new message, with a nonce of its own (the old one would find the deleted message),
      // written down before the post like the first one, so a crash after Discord's post resends under it.
      if (incident.resolvedAt !== null) return this.forget(key, incident);
      const repost = this.writeDown(settings.channelId, nonceOf(key, this.deps.clock()), payload);
      const written = await this.deps.incidents.update(key, (current) =>
        current && current.openedAt === incident.openedAt ? { ...current, message: repost } : current,
      );
      // Replaced meanwhile by a newer incident of the key: that one's own sync posts it.
      if (written?.openedAt !== incident.openedAt) return;
      await this.post(key, incident, repost, payload);
      return;
    }
    if (incident.resolvedAt !== null) await this.forget(key, incident);
  }

  /** The alert message about to be posted, as it is written down before the post. */
  private writeDown(channelId: string, nonce: string, payload: AlertPayload): AlertMessage {
    const title = payload.embeds[0]?.title;
    return {
      channelId,
      messageId: null,
      nonce,
      writtenAt: this.deps.clock(),
      ...(title === undefined ? {} : { title }),
    };
  }

  private async post(key: string, incident: Incident, message: AlertMessage, payload: AlertPayload): Promise<void> {
    const { channelId, nonce, title } = message;
    // Every try shows the title written down, whatever the incident's count now (the edit after a resend brings
    // it up to date): a try past the nonce window knows the post an earlier one made by it and the opening time.
    const sent =
      title === undefined
        ? payload
        : { ...payload, embeds: payload.embeds.map((embed, i) => (i === 0 ? { ...embed, title } : embed)) };
    const { messageId } = await postWrittenDown(
      this.deps,
      channelId,
      sent,
      { nonce, writtenAt: message.writtenAt },
      { matches: (shown) => showsAlert(shown, title, incident.openedAt) },
    );
    const stored = await this.deps.incidents.update(key, (current) =>
      current && current.openedAt === incident.openedAt
        ? { ...current, message: { channelId, messageId, nonce } }
        : current,
    );
    this.deps.logger.info({ guildId: incident.guildId, incident: key, messageId }, 'health alert posted');
    // Resolved while the post was in flight: the message must now say so.
    if (stored && stored.resolvedAt !== null) void this.syncs.run(key);
  }

  /** Drops a resolved incident whose message says so (or that has none); a newer incident of the key stays. */
  private async forget(key: string, incident: Incident): Promise<void> {
    await this.deps.incidents.update(key, (current) =>
      current && current.openedAt === incident.openedAt && current.resolvedAt !== null ? undefined : current,
    );
  }
}

/** Whether a message is this incident's alert: its title as written down, opened at the incident's time. */
function showsAlert(message: FoundMessage, title: string | undefined, openedAt: number): boolean {
  const [embed] = message.embeds;
  // Discord answers timestamps in its own ISO form (+00:00): compared as times.
  return embed?.title === title && embed?.timestamp !== undefined && Date.parse(embed.timestamp) === openedAt;
}

function nonceOf(key: string, at: number): string {
  return makeCardNonce(['alert', key, String(at)]);
}

import { backoffDelay, type BackoffPolicy } from '../../base/backoff.js';
import { Repeating } from '../../base/repeating.js';
import { RerunPerKey } from '../../base/rerun-per-key.js';
import type { Timers } from '../../base/timers.js';
import { describeDiscordError } from '../../discord/posting/classify-discord-error.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import { postWrittenDown, type EarlierPostDeps } from '../../discord/posting/post-once.js';
import type { Poster } from '../../discord/posting/poster.js';
import type { DocumentStore } from '../../store/documents.js';
import { caseCardLinks } from '../cards/index.js';
import type { Job } from '../feature.js';
import { alertFooter, renderConductAlert } from './render-conduct-alert.js';
import type { ConductStore, Finding } from './store/conduct-store.js';

/** How often alerts behind their findings are looked for without being told (a retry due, a restart). */
const DEFAULT_EVERY_MS = 5_000;
/** Alerts synced per pass at most. */
const BATCH = 50;
const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 30_000, capMs: 30 * 60 * 1000 };

export interface ConductAlertsDeps extends EarlierPostDeps {
  conduct: ConductStore;
  documents: DocumentStore;
  poster: Poster;
  timers: Timers;
  everyMs?: number | undefined;
  backoff?: BackoffPolicy | undefined;
}

/**
 * Keeps each finding's one alert in step with it: posts it once, edits it as the finding grows, is answered, is
 * withdrawn or merged. The nonce is written down in the store before the post (and when), so a crash or a lost
 * answer between Discord's post and the store's record of it posts under the same nonce again, and Discord answers
 * with the first message; past Discord's nonce window, the post is looked for first by its footer (post-once.ts).
 * A finding whose alert is behind is found by the store's index, so a restart, or another process taking over the
 * jobs, finishes what the last one began. One pass at a time; an alert whose sync fails backs off on its own.
 */
export class ConductAlerts implements Job {
  private readonly passes = new RerunPerKey(() => this.pass());
  private readonly repeating: Repeating;

  constructor(private readonly deps: ConductAlertsDeps) {
    this.repeating = new Repeating(
      deps.timers,
      deps.everyMs ?? DEFAULT_EVERY_MS,
      () => this.syncDue(),
      () => undefined,
    );
  }

  start(): void {
    this.repeating.start();
  }

  async stop(): Promise<void> {
    await this.repeating.stop();
    await this.passes.settled();
  }

  /** Brings every alert that is behind up to date (a pass, or one more after the pass under way). */
  syncDue(): Promise<void> {
    return this.passes.run('alerts');
  }

  private async pass(): Promise<void> {
    const { conduct, clock } = this.deps;
    let findings: Finding[];
    try {
      findings = await conduct.unsynced(clock(), BATCH);
    } catch (error) {
      this.deps.logger.warn({ err: { message: describeDiscordError(error) } }, 'conduct alerts not read');
      return;
    }
    for (const finding of findings) {
      try {
        await this.sync(finding);
      } catch (error) {
        await this.backOff(finding, error);
      }
    }
  }

  private async sync(finding: Finding): Promise<void> {
    const { conduct, clock } = this.deps;
    const settings = await conduct.settingsOf(finding.guildId);
    const ended = finding.state === 'withdrawn' || finding.state === 'merged';
    // Nowhere to post, or ended before it was ever posted: nothing to say.
    if (settings.channelId === null || (finding.message === null && ended)) {
      await conduct.markSynced(finding.guildId, finding.id, finding.version);
      return;
    }
    const links = await caseCardLinks(this.deps.documents, finding.guildId, finding.hits);
    const payload = renderConductAlert(finding, settings.rules, settings.roleId, links);
    let message = finding.message;
    if (message === null) {
      const written = await conduct.writeDown(finding.guildId, finding.id, {
        channelId: settings.channelId,
        messageId: null,
        nonce: makeCardNonce(['conduct', finding.guildId, finding.id]),
        writtenAt: clock(),
      });
      message = written?.message ?? null;
      if (message === null) return;
    }
    if (message.messageId !== null) {
      const edited = await this.deps.poster.edit(message.channelId, message.messageId, payload);
      if (edited === 'edited') {
        await conduct.markSynced(finding.guildId, finding.id, finding.version);
        return;
      }
      // Deleted in Discord: posted anew under a nonce of its own, written down first like the first one.
      if (ended) {
        await conduct.markSynced(finding.guildId, finding.id, finding.version);
        return;
      }
      message = {
        channelId: message.channelId,
        messageId: null,
        nonce: makeCardNonce(['conduct', finding.id, String(clock())]),
        writtenAt: clock(),
      };
      await conduct.setMessage(finding.guildId, finding.id, message);
    }
    const footer = alertFooter(finding);
    const { messageId, found } = await postWrittenDown(
      this.deps,
      message.channelId,
      payload,
      { nonce: message.nonce, writtenAt: message.writtenAt },
      { matches: (shown) => shown.embeds[0]?.footer?.text === footer },
    );
    await conduct.setMessage(finding.guildId, finding.id, { ...message, messageId });
    // A post an earlier try made shows what it said then: an edit brings it up to date.
    if (found) await this.deps.poster.edit(message.channelId, messageId, payload);
    await conduct.markSynced(finding.guildId, finding.id, finding.version);
    this.deps.logger.info({ guildId: finding.guildId, finding: finding.id, messageId }, 'conduct alert posted');
  }

  private async backOff(finding: Finding, error: unknown): Promise<void> {
    const failures = finding.syncFailures + 1;
    const retryInMs = backoffDelay(failures, this.deps.backoff ?? DEFAULT_BACKOFF);
    this.deps.logger.warn(
      {
        guildId: finding.guildId,
        finding: finding.id,
        failures,
        retryInMs,
        err: { message: describeDiscordError(error) },
      },
      'conduct alert not updated; tried again later',
    );
    try {
      await this.deps.conduct.backOffSync(finding.guildId, finding.id, this.deps.clock() + retryInMs, failures);
    } catch {
      // The store is down: the next pass finds the alert behind again.
    }
  }
}

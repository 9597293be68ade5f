import { makeCardNonce } from '../../discord/posting/nonce.js';
import { postWrittenDown, type EarlierPostDeps } from '../../discord/posting/post-once.js';
import type { Poster } from '../../discord/posting/poster.js';
import type { AppDetail, AppVersion } from '../../upstream/developer-schemas.js';
import type { AppDocuments, Card, Watch } from './app-documents.js';
import { outcomeHeadline, renderOutcome, renderReleaseCard, type CardApp } from './release-card.js';

/** What following an app needs (and how a post tried again past Discord's nonce window finds an earlier one). */
export interface FollowDeps extends EarlierPostDeps {
  documents: AppDocuments;
  poster: Poster;
}

/** What ran, for logs and tests: cards posted and edited, outcomes announced. */
export interface FollowResult {
  posted: number;
  edited: number;
  outcomes: number;
}

/** Text of "what's new" kept on a card; the embed cuts it further. */
const MAX_WHATS_NEW = 1000;

/**
 * Brings one watched app's release cards up to date with its versions as the service shows them now:
 * - the first time (no baseline yet), only the version waiting for review, or else the latest, gets a card,
 *   and the rest of the history is the baseline that never gets one (no flood);
 * - a version seen for the first time later gets a card;
 * - a card whose version changed state is edited in place, once, whatever happened in between (so after the
 *   bot was down, one catch-up edit per version, not one message per step);
 * - a version that left review gets one short outcome message pinging the watch's role (retried at the next
 *   poll when Discord refused it).
 * Every step is written down before and after its Discord message, with a nonce and when, so a crash, a restart or
 * a lost answer at any point neither loses nor doubles a card or an outcome: a try later than Discord keeps nonces
 * looks for the post an earlier try made first (post-once.ts).
 */
export async function followApp(
  deps: FollowDeps,
  guildId: string,
  watch: Watch,
  detail: AppDetail,
): Promise<FollowResult> {
  const result: FollowResult = { posted: 0, edited: 0, outcomes: 0 };
  const { baseline, firstSight } = await settleBaseline(deps, guildId, watch, detail);
  const app: CardApp = { appId: watch.appId, appName: detail.name };
  const where = { guildId, channelId: watch.channelId, roleId: watch.roleId };
  const known = (await deps.documents.readCards(guildId, watch.appId)).versions;

  for (const version of detail.versions) {
    const existing = known[version.label];
    if (!existing && baseline.has(version.label)) continue;
    let card = existing ?? newCard(deps.clock(), version, watch.channelId, [guildId, watch.appId, version.label]);
    // A version first seen already out of review after the watch began went through review between two polls.
    if (!existing && !firstSight && !version.pending) {
      card = { ...card, pendingSince: version.submittedAt ?? card.stateSince };
    }
    const changed =
      existing !== undefined && (existing.state !== (version.state ?? null) || existing.pending !== version.pending);
    if (changed) card = moveCard(card, version, deps.clock());

    if (card.messageId === null || card.channelId !== watch.channelId) {
      // A try of a post already written down in this channel counts from the first; a first post, from now.
      const again = existing?.messageId === null && existing.channelId === watch.channelId;
      const writtenAt = again ? existing.writtenAt : deps.clock();
      const next: Card = { ...card, channelId: watch.channelId, messageId: null };
      delete next.writtenAt;
      if (writtenAt !== undefined) next.writtenAt = writtenAt;
      card = await postCard(deps, where, app, next);
      result.posted += 1;
    } else if (changed) {
      const edited = await deps.poster.edit(card.channelId, card.messageId, renderReleaseCard(app, card));
      if (edited === 'gone') {
        // Deleted in Discord: a new card, with a nonce of its own (the old one would find the deleted message).
        const nonce = makeCardNonce([card.nonce, String(deps.clock())]);
        card = await postCard(deps, where, app, { ...card, messageId: null, nonce, writtenAt: deps.clock() });
        result.posted += 1;
      } else {
        await saveCard(deps, guildId, watch.appId, card);
        result.edited += 1;
      }
    }

    // Out of review after having been in it, and not announced yet: also true on the next poll when posting the
    // outcome failed, so an outcome is never lost, and never posted twice (the nonce covers a lost answer).
    if (!card.pending && card.pendingSince !== null && card.outcomeAnnounced === null) {
      await announceOutcome(deps, where, app, card);
      result.outcomes += 1;
    }
  }
  return result;
}

/** The baseline of the watch, set now (and written down) when this is the first poll since the watch began. */
async function settleBaseline(
  deps: FollowDeps,
  guildId: string,
  watch: Watch,
  detail: AppDetail,
): Promise<{ baseline: ReadonlySet<string>; firstSight: boolean }> {
  if (watch.baseline !== null) return { baseline: new Set(watch.baseline), firstSight: false };
  const waiting = detail.versions.filter((version) => version.pending);
  const featured = waiting.length > 0 ? waiting : detail.versions.slice(-1);
  const featuredLabels = new Set(featured.map((version) => version.label));
  const baseline = detail.versions.map((version) => version.label).filter((label) => !featuredLabels.has(label));
  await deps.documents.updateGuild(guildId, (guild) => {
    const current = guild.watches[watch.appId];
    // Unwatched meanwhile: nothing to write.
    if (!current) return guild;
    return { ...guild, watches: { ...guild.watches, [watch.appId]: { ...current, appName: detail.name, baseline } } };
  });
  return { baseline: new Set(baseline), firstSight: true };
}

function newCard(now: number, version: AppVersion, channelId: string, nonceParts: readonly string[]): Card {
  return {
    label: version.label,
    channelId,
    messageId: null,
    nonce: makeCardNonce(['card', ...nonceParts]),
    state: version.state ?? null,
    pending: version.pending,
    stateSince: version.stateSince ?? now,
    pendingSince: version.pending ? (version.submittedAt ?? version.stateSince ?? now) : null,
    whatsNew: readWhatsNew(version),
    withdrawnBy: null,
    outcomeAnnounced: null,
  };
}

function moveCard(card: Card, version: AppVersion, now: number): Card {
  return {
    ...card,
    state: version.state ?? null,
    pending: version.pending,
    stateSince: version.stateSince ?? now,
    pendingSince: card.pendingSince ?? (version.pending ? now : null),
    // Back in review (sent again under the same label): its next outcome is announced too.
    outcomeAnnounced: version.pending ? null : card.outcomeAnnounced,
  };
}

async function postCard(deps: FollowDeps, where: { guildId: string }, app: CardApp, card: Card): Promise<Card> {
  // Written down first: a crash before Discord's answer leaves a card without a message id, posted again
  // with the same nonce, which Discord answers with the first message; later than Discord keeps nonces, the
  // channel is searched for it (its title and footer name the app and version).
  await saveCard(deps, where.guildId, app.appId, card);
  const body = renderReleaseCard(app, card);
  const { messageId, found } = await postWrittenDown(deps, card.channelId, body, {
    nonce: card.nonce,
    writtenAt: card.writtenAt,
  });
  // It shows what the earlier try drew.
  if (found) await deps.poster.edit(card.channelId, messageId, body);
  const posted: Card = { ...card, messageId };
  delete posted.writtenAt;
  await saveCard(deps, where.guildId, app.appId, posted);
  return posted;
}

async function announceOutcome(
  deps: FollowDeps,
  where: { guildId: string; channelId: string; roleId: string | null },
  app: CardApp,
  card: Card,
): Promise<void> {
  const state = card.state ?? '';
  const nonce = makeCardNonce(['outcome', where.guildId, app.appId, card.label, state]);
  // Written down before its first try, so a try after a lost answer, later than Discord keeps nonces, looks first.
  let written = card.outcomeWritten?.state === state ? card.outcomeWritten : undefined;
  if (!written) {
    written = { state, at: deps.clock() };
    await saveCard(deps, where.guildId, app.appId, { ...card, outcomeWritten: written });
  }
  const headline = outcomeHeadline(app, card);
  await postWrittenDown(
    deps,
    where.channelId,
    renderOutcome(app, card, where),
    { nonce, writtenAt: written.at },
    { matches: (message) => message.embeds.length === 0 && message.content.includes(headline) },
  );
  await saveCard(deps, where.guildId, app.appId, { ...card, outcomeWritten: written, outcomeAnnounced: state });
}

/** Stores a card, keeping what /app withdraw may have written meanwhile (who withdrew it). */
async function saveCard(deps: FollowDeps, guildId: string, appId: string, card: Card): Promise<void> {
  await deps.documents.updateCards(guildId, appId, (cards) => {
    const stored = cards.versions[card.label];
    const withdrawnBy = stored?.withdrawnBy ?? card.withdrawnBy;
    return { ...cards, versions: { ...cards.versions, [card.label]: { ...card, withdrawnBy } } };
  });
}

function readWhatsNew(version: AppVersion): string | null {
  const value = version.raw['whatsNew'] ?? version.raw['whats_new'] ?? version.raw['changes'];
  return typeof value === 'string' && value.trim() !== '' ? value.slice(0, MAX_WHATS_NEW) : null;
}

/**
 * Edits a version's card to show what is stored now (after /app withdraw wrote who withdrew it), without
 * asking the service anything. Nothing happens when the version has no card yet.
 */
export async function refreshCard(
  deps: Pick<FollowDeps, 'documents' | 'poster'>,
  guildId: string,
  app: CardApp,
  label: string,
): Promise<void> {
  const card = (await deps.documents.readCards(guildId, app.appId)).versions[label];
  if (!card || card.messageId === null) return;
  await deps.poster.edit(card.channelId, card.messageId, renderReleaseCard(app, card));
}

import { RECORD_TABLE_NAMES, type RecordRow } from '../../src/store/community-record.js';
import type { HeldEntry, QueuedEntry } from '../../src/store/deliveries.js';
import type { DeliveryIntake } from '../../src/store/delivery-intake.js';
import type { DeliveryMigration } from '../../src/store/delivery-migration.js';
import type { LaneQueue } from '../../src/store/lane-queue.js';
import { openStore, type Store } from '../../src/store/open-store.js';

export interface Copied {
  hooks: number;
  guilds: number;
  /** Documents of the features beside the feed: cards, alerts, escalation, developer keys and release cards. */
  records: number;
  auditEntries: number;
  /** Rows of the community record (cases, shifts, sessions, modcalls, players, each guild's settings). */
  recordRows: number;
  /** Guilds with an on-duty board, role or minimum (/duty), with the board's message. */
  dutyGuilds: number;
  /** Posted (and muted) delivery ids still remembered: the service's retries of them stay duplicates. */
  postedIds: number;
  openDeliveries: number;
  /** Messages written down and not confirmed, kept with their nonce (a resend then cannot post twice). */
  writtenDown: number;
  /** Written-down messages whose entries the target routed elsewhere: they go again under a new nonce. */
  writtenDownLost: number;
}

/** Posted ids are read and written a page at a time: a day of deliveries may be many. */
const POSTED_PAGE = 1_000;
/** The community record too: a guild may have a million cases. */
const RECORD_PAGE = 1_000;

/**
 * Copies everything the bot must not lose from one store to another through the store port, so every engine's
 * guarantees hold on the way in (a delivery already in the target is a duplicate, not a second copy). Run again,
 * it copies nothing twice: hooks, settings and documents are overwritten, deliveries deduplicated, and the audit
 * log is copied only into a store that has none. Settings go first: deliveries are routed by them on arrival.
 */
export async function migrateStore(fromUrl: string, toUrl: string): Promise<Copied> {
  if (fromUrl === toUrl) throw new Error('--from and --to name the same store');
  const from = await openStore(fromUrl);
  try {
    const to = await openStore(toUrl);
    try {
      return await copyStore(from, to);
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}

async function copyStore(from: Store, to: Store): Promise<Copied> {
  const hooks = await from.hooks.listAll();
  for (const hook of hooks) await to.hooks.save(hook);
  const guilds = await from.guilds.listAll();
  for (const settings of guilds) await to.guilds.update(settings.guildId, () => settings);
  const records = await copyRecords(from, to);
  const auditEntries = await copyAudit(from, to);
  const recordRows = await copyCommunityRecord(from, to);
  const dutyGuilds = await copyDuty(from, to);
  const postedIds = await copyPosted(from.deliveries, to.deliveries);
  const { openDeliveries, writtenDown, writtenDownLost } = await copyOpen(from.deliveries, to.deliveries);
  // Last: accepting the open deliveries above counted them as new activity in the target.
  for (const hook of hooks) await to.activity.restore(hook.hookId, await from.activity.get(hook.hookId));
  return {
    hooks: hooks.length,
    guilds: guilds.length,
    records,
    auditEntries,
    recordRows,
    dutyGuilds,
    postedIds,
    openDeliveries,
    writtenDown,
    writtenDownLost,
  };
}

async function copyRecords(from: Store, to: Store): Promise<number> {
  let copied = 0;
  for (const kind of await from.documents.kinds()) {
    for (const { key, value, at } of await from.documents.list(kind)) {
      // With its time: what is due or old in the source is due or old in the target.
      await to.documents.update(
        kind,
        key,
        () => value,
        () => at ?? null,
      );
      copied += 1;
    }
  }
  return copied;
}

/**
 * The community record, table by table a page at a time. The source's record updates not merged yet are merged
 * first (its deliveries are copied without them): what the bot received before the move is in the copy. Those the
 * writer set aside are tried once more; one that fails again stays out of the copy (its row in /status too).
 */
async function copyCommunityRecord(from: Store, to: Store): Promise<number> {
  for (;;) {
    const { recorded, skipped, setAside, givenUp } = await from.community.recordPending(RECORD_PAGE);
    if (recorded + skipped + setAside + givenUp < RECORD_PAGE) break;
  }
  await from.setAside.retryNow(Date.now(), 'record-writer');
  for (;;) {
    const { recorded, skipped, setAside, givenUp } = await from.community.retrySetAside(RECORD_PAGE);
    // One that fails again is due only after a backoff: the pass after the last due one finds none.
    if (recorded + skipped + setAside + givenUp === 0) break;
  }
  let copied = 0;
  for (const table of RECORD_TABLE_NAMES) {
    let after: RecordRow | undefined;
    for (;;) {
      const page = await from.community.exportRows(table, after, RECORD_PAGE);
      if (page.length === 0) break;
      copied += await to.community.importRows(table, page);
      after = page.at(-1);
    }
  }
  return copied;
}

/**
 * Each guild's /duty choices; the board's message too, so the copy edits it rather than posting another, the
 * members holding the on-duty role because of the bot, so the copy takes it back from them, and the coverage
 * guard's minimum with since when the guild is short, so its wait is not started anew.
 */
async function copyDuty(from: Store, to: Store): Promise<number> {
  const configured = await from.duty.listConfigured();
  for (const settings of configured) {
    await to.duty.setBoardChannel(settings.guildId, settings.boardChannelId);
    if (settings.boardChannelId !== null && settings.boardMessageId !== null) {
      await to.duty.setBoardMessage(settings.guildId, settings.boardChannelId, settings.boardMessageId);
    }
    await to.duty.setRole(settings.guildId, settings.roleId, settings.roleSetBy);
    for (const holder of await from.duty.roleHoldersOf(settings.guildId)) {
      await to.duty.noteRoleHolder(settings.guildId, holder);
    }
  }
  const guarded = await from.duty.listGuarded();
  for (const coverage of guarded) {
    await to.duty.setMinimum(coverage.guildId, coverage.minimum);
    await to.duty.setUncoveredSince(coverage.guildId, coverage.uncoveredSince);
  }
  const guilds = new Set([...configured, ...guarded].map((settings) => settings.guildId));
  return guilds.size;
}

async function copyAudit(from: Store, to: Store): Promise<number> {
  // A second run must not double the log: only a store without one gets it.
  if ((await to.audit.listAll()).length > 0) return 0;
  const entries = await from.audit.listAll();
  for (const entry of entries) await to.audit.append(entry);
  return entries.length;
}

async function copyPosted(from: DeliveryMigration, to: DeliveryMigration): Promise<number> {
  let copied = 0;
  let afterSeq = 0;
  for (;;) {
    const page = await from.listPosted({ afterSeq, limit: POSTED_PAGE });
    if (page.length === 0) return copied;
    copied += await to.rememberPosted(page.map(({ seq: _seq, ...posted }) => posted));
    afterSeq = page.at(-1)?.seq ?? afterSeq;
  }
}

/**
 * Open deliveries in their order, with their routing keys; then each message that was written down and not
 * confirmed is written down again under its nonce, so if it did reach Discord, the resend returns that post.
 */
async function copyOpen(
  from: DeliveryMigration & Pick<LaneQueue, 'writtenMessage'>,
  to: DeliveryMigration & Pick<DeliveryIntake, 'accept'> & Pick<LaneQueue, 'writeDown'>,
): Promise<Pick<Copied, 'openDeliveries' | 'writtenDown' | 'writtenDownLost'>> {
  const open = await from.listOpen();
  let openDeliveries = 0;
  // An open entry is a delivery with its routing keys (accept reads only those fields): routed again on arrival.
  for (const entry of open) if ((await to.accept(entry)) === 'accepted') openDeliveries += 1;
  const messages = writtenDownMessages(open);
  if (messages.size === 0) return { openDeliveries, writtenDown: 0, writtenDownLost: 0 };
  const copies = new Map((await to.listOpen()).map((entry) => [idOf(entry), entry]));
  let writtenDown = 0;
  for (const { channelId, nonce, ids } of messages.values()) {
    const lane = ids.flatMap((id) => {
      const copy = copies.get(id);
      return copy && 'writtenNonce' in copy && copy.channelId === channelId ? [copy] : [];
    });
    // A second run finds the message written down already.
    const kept =
      lane.length === ids.length &&
      (lane.every((copy) => copy.writtenNonce === nonce) ||
        (await to.writeDown(
          channelId,
          nonce,
          lane.map((copy) => copy.seq),
          await from.writtenMessage(channelId, nonce),
        )));
    if (kept) writtenDown += 1;
  }
  return { openDeliveries, writtenDown, writtenDownLost: messages.size - writtenDown };
}

function idOf(entry: { hookId: string; deliveryId: string }): string {
  return `${entry.hookId}\n${entry.deliveryId}`;
}

/** The source's written-down messages: channel, nonce, and their entries' ids in order. */
function writtenDownMessages(
  open: ReadonlyArray<QueuedEntry | HeldEntry>,
): Map<string, { channelId: string; nonce: string; ids: string[] }> {
  const messages = new Map<string, { channelId: string; nonce: string; ids: string[] }>();
  for (const entry of open) {
    if (!('writtenNonce' in entry) || entry.writtenNonce === null) continue;
    const key = `${entry.channelId}\n${entry.writtenNonce}`;
    const message = messages.get(key) ?? { channelId: entry.channelId, nonce: entry.writtenNonce, ids: [] };
    message.ids.push(idOf(entry));
    messages.set(key, message);
  }
  return messages;
}

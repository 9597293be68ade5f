import { STORE_MODULES } from '../../src/features/index.js';
import type { HeldEntry, QueuedEntry } from '../../src/store/deliveries.js';
import type { DeliveryIntake } from '../../src/store/delivery-intake.js';
import type { DeliveryMigration } from '../../src/store/delivery-migration.js';
import type { LaneQueue } from '../../src/store/lane-queue.js';
import { openStore, type Store } from '../../src/store/open-store.js';

export interface Copied {
  hooks: number;
  guilds: number;
  /** Documents of the features beside the feed: cards, alerts, escalation, developer keys and release cards. */
  documents: number;
  /**
   * What each feature's store module copied, in the features' order: its name, and its count with what it counts
   * (the audit entries, the community record's rows, the guilds' /duty settings, the quotas' and digests' rows).
   */
  modules: Array<{ module: string; copied: number; counted: string }>;
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

/**
 * Copies everything the bot must not lose from one store to another through the store port, so every engine's
 * guarantees hold on the way in (a delivery already in the target is a duplicate, not a second copy). Run again,
 * it copies nothing twice: hooks, settings and documents are overwritten, deliveries deduplicated, and each
 * feature's store module says how its rows are copied once (the audit log only into a store that has none).
 * Settings go first: deliveries are routed by them on arrival.
 */
export async function migrateStore(fromUrl: string, toUrl: string): Promise<Copied> {
  if (fromUrl === toUrl) throw new Error('--from and --to name the same store');
  const from = await openStore(fromUrl, STORE_MODULES);
  try {
    const to = await openStore(toUrl, STORE_MODULES);
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
  const documents = await copyDocuments(from, to);
  const modules = [];
  for (const module of STORE_MODULES) {
    modules.push({
      module: module.name,
      copied: await module.copy(from.of(module), to.of(module)),
      counted: module.copied,
    });
  }
  const postedIds = await copyPosted(from.deliveries, to.deliveries);
  const { openDeliveries, writtenDown, writtenDownLost } = await copyOpen(from.deliveries, to.deliveries);
  // Last: accepting the open deliveries above counted them as new activity in the target.
  for (const hook of hooks) await to.activity.restore(hook.hookId, await from.activity.get(hook.hookId));
  return {
    hooks: hooks.length,
    guilds: guilds.length,
    documents,
    modules,
    postedIds,
    openDeliveries,
    writtenDown,
    writtenDownLost,
  };
}

async function copyDocuments(from: Store, to: Store): Promise<number> {
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

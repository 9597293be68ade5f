import type { CoordinationOptions, FeedOwnership } from './coordination.js';
import type { DeliveryQueue } from './delivery-queue.js';
import type { DocumentStore } from './documents.js';
import type { GuildForgetting } from './forget-guild.js';
import type { GuildSettingsStore } from './guild-settings.js';
import type { HookActivityStore } from './hook-activity.js';
import type { HookStore } from './hooks.js';
import type { PersonData } from './person-data.js';
import type { SetAsideStore } from './set-aside.js';
import type { StoreSignals } from './signals.js';
import type { StoreModule } from './store-module.js';

/** Which engine holds the store (for /healthz and logs: never the URL, which may hold a password). */
export type StoreKind = 'memory' | 'sqlite' | 'postgres';

/**
 * The store port, the kernel every feature shares: every fact that must survive a restart or be shared between
 * processes. The store assigns order and enforces uniqueness; memory holds only bounded, invalidated caches and
 * timers (DESIGN.md, State). Each engine implements it and passes the same contract tests (test/contract/).
 * A feature with tables of its own has them in its store module (store-module.ts), opened with the store: `of`.
 */
export interface Store extends GuildForgetting {
  readonly kind: StoreKind;
  readonly hooks: HookStore;
  readonly guilds: GuildSettingsStore;
  readonly deliveries: DeliveryQueue;
  readonly activity: HookActivityStore;
  /** The features' documents (the developer API's records, alerts, cards, session threads). */
  readonly documents: DocumentStore;
  /** What the store keeps about one person, every module's rows: `/record mine` and `/record forget`. */
  readonly people: PersonData;
  /** What the batch jobs set aside (the record's writer and sweep): for /status, /metrics and a retry at once. */
  readonly setAside: SetAsideStore;
  readonly signals: StoreSignals;
  /**
   * A feature's own store, made by its module over this store's engine; throws for a module the store was not
   * opened with. Another feature reads it only as the owner's index.ts lends it.
   */
  of<Own>(module: StoreModule<Own>): Own;
  /**
   * How this feed process shares the feeds and the gateway with others, as far as the engine allows several:
   * started by the feed worker. The composition root never needs to know which engine it runs on.
   */
  coordinate(options: CoordinationOptions): FeedOwnership;
  close(): Promise<void>;
}

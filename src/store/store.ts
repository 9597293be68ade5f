import type { AuditLog } from './audit-log.js';
import type { CommunityRecord } from './community-record.js';
import type { CoordinationOptions, FeedOwnership } from './coordination.js';
import type { DeliveryQueue } from './delivery-queue.js';
import type { Digests } from './digests.js';
import type { DocumentStore } from './documents.js';
import type { DutyStore } from './duty-store.js';
import type { GuildForgetting } from './forget-guild.js';
import type { GuildSettingsStore } from './guild-settings.js';
import type { HookActivityStore } from './hook-activity.js';
import type { HookStore } from './hooks.js';
import type { SetAsideStore } from './set-aside.js';
import type { StoreSignals } from './signals.js';

/** Which engine holds the store (for /healthz and logs: never the URL, which may hold a password). */
export type StoreKind = 'memory' | 'sqlite' | 'postgres';

/**
 * The store port: every fact that must survive a restart or be shared between processes. The store assigns
 * order and enforces uniqueness; memory holds only bounded, invalidated caches and timers (DESIGN.md, State).
 * Each engine implements it and passes the same contract tests (test/contract/).
 */
export interface Store extends GuildForgetting {
  readonly kind: StoreKind;
  readonly hooks: HookStore;
  readonly guilds: GuildSettingsStore;
  readonly deliveries: DeliveryQueue;
  readonly activity: HookActivityStore;
  /** Documents of other features (the developer API's records, alerts, cards). */
  readonly documents: DocumentStore;
  /** Admin actions, for /audit. */
  readonly audit: AuditLog;
  /** The community record: every case, shift, session and modcall, for lookups and statistics. */
  readonly community: CommunityRecord;
  /** Duty quotas and the weekly digest's schedule and posts. */
  readonly digests: Digests;
  /** The duty feature's choices: each guild's on-duty board and on-shift role. */
  readonly duty: DutyStore;
  /** What the batch jobs set aside (the record's writer and sweep): for /status, /metrics and a retry at once. */
  readonly setAside: SetAsideStore;
  readonly signals: StoreSignals;
  /**
   * How this feed process shares the feeds and the gateway with others, as far as the engine allows several:
   * started by the feed worker. The composition root never needs to know which engine it runs on.
   */
  coordinate(options: CoordinationOptions): FeedOwnership;
  close(): Promise<void>;
}

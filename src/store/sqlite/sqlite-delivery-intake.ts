import type { Database, Statement } from 'better-sqlite3';

import { tellsRecord } from '../../upstream/record-update.js';
import { BoundedCache } from '../bounded-cache.js';
import { dedupeKeyOf } from '../dedupe-key.js';
import type { AcceptOptions, AcceptOutcome, DeliveryState, NewDelivery } from '../deliveries.js';
import type { DeliveryIntake, EntryCounts } from '../delivery-intake.js';
import { emptyGuildSettings, GuildSettingsSchema, type GuildSettings } from '../guild-settings.js';
import { placementOf } from '../placement.js';
import { placedValues } from '../queue-statements.js';
import { channelOf, resolveRoute } from '../routing-rules.js';
import { sqliteDialect as d } from '../sql-dialect.js';
import type { RowOf } from '../table-columns.js';
import { SETTINGS } from './sqlite-guild-settings.js';
import { RECORD_ACCEPTED_SQL } from './sqlite-hook-activity.js';
import { prepare, SQL } from './sqlite-sql.js';
import type { WriteBatcher } from './write-batcher.js';

/** Guilds whose parsed settings are kept for the intake's routing. */
const PARSED_SETTINGS = 1_000;

/**
 * The intake's side of the SQLite queue: a delivery is routed, placed (placement.ts) and stored in one write of
 * the single writer, so a settings change or a channel marked broken commits before it or after, never between.
 */
export class SqliteDeliveryIntake implements DeliveryIntake {
  private readonly statements;
  private readonly noteAccepted: Statement<[string, number, string]>;
  private readonly settingsOf: Statement<[string], RowOf<typeof SETTINGS, 'sqlite'>>;
  private readonly hookStored: Statement<[string], { found: number }>;
  /** Stored settings text -> parsed: always right (keyed by what is stored now), bounded. */
  private readonly parsedSettings = new BoundedCache<GuildSettings>(PARSED_SETTINGS);

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.statements = {
      brokenReason: prepare(db, SQL.brokenReason),
      stateOf: prepare(db, SQL.stateOf),
      countOpen: prepare(db, SQL.countOpen),
      countByState: prepare(db, SQL.countByState),
      oldestWaiting: prepare(db, SQL.oldestWaiting),
      insertPlaced: prepare(db, SQL.insertPlaced),
    };
    this.noteAccepted = db.prepare(RECORD_ACCEPTED_SQL);
    this.settingsOf = prepare(db, d.select(SETTINGS).from<[string]>('guild_settings WHERE guild_id = ?'));
    this.hookStored = db.prepare('SELECT 1 AS found FROM hook WHERE hook_id = ?');
  }

  accept(delivery: NewDelivery, options: AcceptOptions = {}): Promise<AcceptOutcome> {
    return this.writes.run((tx) => {
      const { hookId, guildId, event, rawBody, receivedAt } = delivery;
      // The single writer removes hooks too: a removal commits before this check or after this delivery.
      if (options.requireHook && !this.hookStored.get(hookId)) return 'unknown-hook';
      const route = resolveRoute(this.readSettings(guildId), delivery);
      const channelId = channelOf(route);
      const broken = channelId === undefined ? undefined : this.statements.brokenReason.get(channelId);
      const place = placementOf(route, broken?.reason, receivedAt);
      // Counted, not announced: only the service's ping and refusals are waited for (hook-outcome signals).
      this.noteAccepted.run(hookId, receivedAt, event);
      // The community record's writer reads the body of what tells it something, muted or not (migrations/0007-unrecorded-mark.ts).
      const unrecorded = tellsRecord(event);
      const { changes } = this.statements.insertPlaced.run(
        ...placedValues(d, place, place.keepsBody || unrecorded),
        rawBody,
        hookId,
        dedupeKeyOf(delivery.deliveryId),
        guildId,
        event,
        delivery.server ?? null,
        delivery.caseType ?? null,
        receivedAt,
        unrecorded ? 1 : null,
      );
      if (changes === 0) return 'duplicate';
      if (place.state === 'waiting' && place.channelId !== null) {
        tx.afterCommit({ kind: 'work', channelId: place.channelId, guildId, at: receivedAt });
      }
      return 'accepted';
    });
  }

  stateOf(hookId: string, deliveryId: string): Promise<DeliveryState | undefined> {
    return Promise.resolve(this.statements.stateOf.get(hookId, dedupeKeyOf(deliveryId))?.state);
  }

  countOpen(): Promise<number> {
    return Promise.resolve(this.statements.countOpen.get()?.n ?? 0);
  }

  countByState(): Promise<EntryCounts> {
    return Promise.resolve(this.statements.countByState.get() ?? { waiting: 0, held: 0, muted: 0 });
  }

  oldestWaitingAt(): Promise<number | undefined> {
    return Promise.resolve(this.statements.oldestWaiting.get()?.at);
  }

  private readSettings(guildId: string): GuildSettings {
    const row = this.settingsOf.get(guildId);
    if (!row) return emptyGuildSettings(guildId);
    // Parsed once per stored text: the row is read on every accept (a few µs), the parse would cost more.
    let settings = this.parsedSettings.get(row.settings);
    if (!settings) {
      settings = GuildSettingsSchema.parse(JSON.parse(row.settings));
      this.parsedSettings.set(row.settings, settings);
    }
    return settings;
  }
}

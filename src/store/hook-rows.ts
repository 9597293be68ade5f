import type { SignatureFailure } from '../upstream/signature.js';
import { emptyHookActivity, type HookActivityRecord } from './hook-activity.js';
import { HookRecordSchema, type HookRecord } from './hooks.js';

/** A `hook` row as both engines return it (`events` parsed: SQLite keeps JSON text, PostgreSQL JSONB). */
export interface HookRow {
  hook_id: string;
  guild_id: string;
  webhook_id: string | null;
  secret: string;
  events: unknown;
  created_at: number;
}

/** A `hook_activity` row (`enabled` is 0/1 in SQLite, a boolean in PostgreSQL). */
export interface ActivityRow {
  last_delivery_at: number | null;
  last_event: string | null;
  refused: number;
  refused_in_a_row: number;
  last_refusal: string | null;
  enabled: boolean | number | null;
  enabled_at: number | null;
}

/** An activity record as the row's column values, in `hook_activity`'s column order after hook_id. */
export function toActivityColumns(
  record: HookActivityRecord,
): [number | null, string | null, number, number, string | null, boolean | null, number | null] {
  return [
    record.lastDeliveryAt ?? null,
    record.lastEvent ?? null,
    record.refused,
    record.refusedInARow,
    record.lastRefusal ?? null,
    record.state?.enabled ?? null,
    record.state?.at ?? null,
  ];
}

/** The columns {@link toActivityColumns} fills. */
export const ACTIVITY_COLUMNS =
  'last_delivery_at, last_event, refused, refused_in_a_row, last_refusal, enabled, enabled_at';

export function toHookRecord(row: HookRow): HookRecord {
  return HookRecordSchema.parse({
    hookId: row.hook_id,
    guildId: row.guild_id,
    webhookId: row.webhook_id,
    secret: row.secret,
    events: row.events,
    createdAt: row.created_at,
  });
}

export function toHookActivity(row: ActivityRow | undefined): HookActivityRecord {
  if (!row) return emptyHookActivity();
  return {
    lastDeliveryAt: row.last_delivery_at ?? undefined,
    lastEvent: row.last_event ?? undefined,
    refused: row.refused,
    refusedInARow: row.refused_in_a_row,
    lastRefusal: (row.last_refusal ?? undefined) as SignatureFailure | undefined,
    state: row.enabled === null ? undefined : { enabled: Boolean(row.enabled), at: row.enabled_at ?? 0 },
  };
}

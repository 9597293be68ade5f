import type { SignatureFailure } from '../upstream/signature.js';
import { emptyHookActivity, type HookActivityRecord } from './hook-activity.js';
import { HookRecordSchema, type HookRecord } from './hooks.js';
import { columns, type RowOf } from './table-columns.js';

/** What a hook is read with: {@link toHookRecord}'s columns (`events` is JSON text in SQLite, parsed in PostgreSQL). */
export const HOOK = columns('hook', 'hook_id', 'guild_id', 'webhook_id', 'secret', 'events', 'created_at');

/** A hook's activity, in `hook_activity`'s column order after hook_id: what {@link toActivityColumns} fills. */
export const ACTIVITY = columns(
  'hook_activity',
  'last_delivery_at',
  'last_event',
  'refused',
  'refused_in_a_row',
  'last_refusal',
  'enabled',
  'enabled_at',
);

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

/** A hook's row (its `events` parsed, whichever engine read it) as the record the port speaks. */
export function toHookRecord(row: RowOf<typeof HOOK>): HookRecord {
  return HookRecordSchema.parse({
    hookId: row.hook_id,
    guildId: row.guild_id,
    webhookId: row.webhook_id,
    secret: row.secret,
    events: row.events,
    createdAt: row.created_at,
  });
}

/** A hook's activity row (`enabled`: 0 or 1 in SQLite, a boolean in PostgreSQL) as the port's record. */
export function toHookActivity(row: RowOf<typeof ACTIVITY> | undefined): HookActivityRecord {
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

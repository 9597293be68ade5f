import type { SignatureFailure } from '../upstream/signature.js';
import { emptyHookActivity, type HookActivity } from './hook-activity.js';
import { StoredHookSchema, type StoredHook } from './hooks.js';
import { columns, type RowOf } from './table-columns.js';

/** What a hook is read with: {@link toStoredHook}'s columns (`events` is JSON text in SQLite, parsed in PostgreSQL). */
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

/** A hook's activity as the row's column values, in `hook_activity`'s column order after hook_id. */
export function toActivityColumns(
  activity: HookActivity,
): [number | null, string | null, number, number, string | null, boolean | null, number | null] {
  return [
    activity.lastDeliveryAt ?? null,
    activity.lastEvent ?? null,
    activity.refused,
    activity.refusedInARow,
    activity.lastRefusal ?? null,
    activity.state?.enabled ?? null,
    activity.state?.at ?? null,
  ];
}

/** A hook's row (its `events` parsed, whichever engine read it) as the value the port speaks. */
export function toStoredHook(row: RowOf<typeof HOOK>): StoredHook {
  return StoredHookSchema.parse({
    hookId: row.hook_id,
    guildId: row.guild_id,
    webhookId: row.webhook_id,
    secret: row.secret,
    events: row.events,
    createdAt: row.created_at,
  });
}

/** A hook's activity row (`enabled`: 0 or 1 in SQLite, a boolean in PostgreSQL) as the port's value. */
export function toHookActivity(row: RowOf<typeof ACTIVITY> | undefined): HookActivity {
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

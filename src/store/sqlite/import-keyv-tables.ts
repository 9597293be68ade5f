import type { Database } from 'better-sqlite3';
import { z } from 'zod';

import { emptyGuildSettings, GuildSettingsSchema, type GuildSettings } from '../guild-settings.js';
import { StoredHookSchema } from '../hooks.js';
import { channelOf, resolveRoute } from '../routing-rules.js';

/** The key-value tables of versions before the store had a schema of its own (one keyv namespace each). */
const OLD_TABLES = ['hooks', 'guilds', 'outbox', 'sends', 'seen'] as const;

const OldOutboxEntry = z.object({
  seq: z.number().int().nonnegative(),
  hookId: z.string(),
  guildId: z.string(),
  deliveryId: z.string(),
  event: z.string(),
  receivedAt: z.number().int(),
  rawBody: z.string(),
});
const OldPendingSend = z.object({ channelId: z.string(), nonce: z.string(), seqs: z.array(z.number().int()) });
const OldSeen = z.object({ at: z.number().int() });

/**
 * Moves what an older version kept in keyv tables into the schema, inside the migration's transaction, then
 * drops those tables: hooks and settings as they were, waiting deliveries in their order (routed by the
 * settings, or held as unrouted), a message written down before a stop with its nonce, and the ids posted in
 * the last 25 h (so a repeat is still refused). A record that does not parse is an error: nothing is dropped
 * silently.
 */
export function importKeyvTables(db: Database): void {
  const present = new Set(
    (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>).map(
      (row) => row.name,
    ),
  );
  const tables = OLD_TABLES.filter((table) => present.has(table));
  if (tables.length === 0) return;
  const read = <S extends z.ZodType>(table: (typeof OLD_TABLES)[number], schema: S): Array<[string, z.infer<S>]> => {
    if (!present.has(table)) return [];
    const rows = db.prepare(`SELECT key, value FROM "${table}"`).all() as Array<{ key: string; value: string }>;
    return rows.map((row) => {
      const stored = JSON.parse(row.value) as { value?: unknown };
      const parsed = schema.safeParse(stored.value);
      if (!parsed.success) throw new Error(`stored ${table} record ${row.key} does not match its schema`);
      return [row.key.slice(row.key.indexOf(':') + 1), parsed.data];
    });
  };

  const insertHook = db.prepare(
    'INSERT INTO hook (hook_id, guild_id, webhook_id, secret, events, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const [, hook] of read('hooks', StoredHookSchema)) {
    insertHook.run(hook.hookId, hook.guildId, hook.webhookId, hook.secret, JSON.stringify(hook.events), hook.createdAt);
  }
  const settings = new Map<string, GuildSettings>();
  const insertSettings = db.prepare('INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)');
  for (const [, guild] of read('guilds', GuildSettingsSchema)) {
    settings.set(guild.guildId, guild);
    insertSettings.run(guild.guildId, JSON.stringify(guild));
  }

  const claims = new Map<number, string>();
  for (const [, send] of read('sends', OldPendingSend)) for (const seq of send.seqs) claims.set(seq, send.nonce);
  const insertEntry = db.prepare(`
    INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, received_at, raw_body, state, channel_id,
                          claim_nonce, park_kind, park_detail, parked_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?)`);
  const entries = read('outbox', OldOutboxEntry).map(([, entry]) => entry);
  for (const entry of entries.sort((a, b) => a.seq - b.seq)) {
    // Settings of that layout had no rules and no `off`: an entry is routed or unrouted, never muted.
    const route = channelOf(
      resolveRoute(settings.get(entry.guildId) ?? emptyGuildSettings(entry.guildId), { event: entry.event }),
    );
    const values = [entry.seq + 1, entry.hookId, entry.deliveryId, entry.guildId, entry.event, entry.receivedAt];
    if (route) {
      insertEntry.run(...values, entry.rawBody, 'waiting', route, claims.get(entry.seq) ?? null, null, null);
    } else {
      insertEntry.run(...values, entry.rawBody, 'parked', null, null, 'unrouted', entry.receivedAt);
    }
  }
  const insertPosted = db.prepare(`
    INSERT OR IGNORE INTO delivery (hook_id, delivery_id, guild_id, event, received_at, state, posted_at)
    VALUES (?, ?, '', '', ?, 'posted', ?)`);
  for (const [key, seen] of read('seen', OldSeen)) {
    const colon = key.indexOf(':');
    insertPosted.run(key.slice(0, colon), key.slice(colon + 1), seen.at, seen.at);
  }
  for (const table of tables) db.exec(`DROP TABLE "${table}"`);
}

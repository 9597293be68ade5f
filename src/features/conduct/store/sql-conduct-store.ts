import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner, SqlWrite } from '../../../store/sql-runner.js';
import { columns, type RowOf } from '../../../store/table-columns.js';
import type {
  ConductSettings,
  ConductStore,
  DueItem,
  Finding,
  FindingMessage,
  FindingState,
  Hit,
  JudgedItem,
  PlannedFindings,
} from './conduct-store.js';
import { DEFAULT_RULES, RULE_NAMES, type ConductRules, type RuleName, type RuleSetting } from './rule-settings.js';

const GUILD = columns('conduct_guild', 'guild_id', 'channel_id', 'role_id', 'rules');
const DUE = columns('conduct_due', 'guild_id', 'kind', 'server', 'number', 'noted', 'failures');
const FINDING = columns(
  'conduct_finding',
  'guild_id',
  'id',
  'rule',
  'subject',
  'opened_at',
  'hits',
  'state',
  'merged_into',
  'acted_by',
  'acted_at',
  'version',
  'synced_version',
  'sync_failures',
  'channel_id',
  'message_id',
  'nonce',
  'written_at',
);
type FindingRow = RowOf<typeof FINDING>;

/** The findings a judgement may still change: those with cases. */
const LIVE = "state IN ('open', 'acknowledged', 'dismissed')";

function conductStatements(d: SqlDialect) {
  return {
    settingsOf: d.select(GUILD).from<[string]>('conduct_guild WHERE guild_id = ?'),
    listSettings: d.select(GUILD).from<[]>('conduct_guild ORDER BY guild_id'),
    setChannel: d.sql<never, [string, string | null]>(
      `INSERT INTO conduct_guild (guild_id, channel_id) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id`,
    ),
    setRole: d.sql<never, [string, string | null]>(
      `INSERT INTO conduct_guild (guild_id, role_id) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET role_id = excluded.role_id`,
    ),
    setRules: d.sql<never, [string, string]>(
      `INSERT INTO conduct_guild (guild_id, rules) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET rules = excluded.rules`,
    ),
    // A merge of something already due counts up `noted`: a judgement under way then leaves it due.
    noteDue: d.sql<never, [string, string, string, number, number]>(
      `INSERT INTO conduct_due (guild_id, kind, server, number, noted, failures, try_at) VALUES (?, ?, ?, ?, 1, 0, ?)
       ON CONFLICT (guild_id, kind, server, number) DO UPDATE
         SET noted = conduct_due.noted + 1, failures = 0, try_at = excluded.try_at`,
    ),
    dueItems: d.select(DUE).from<[number, number]>('conduct_due WHERE try_at <= ? ORDER BY try_at LIMIT ?'),
    clearDue: d.sql<never, [string, string, string, number, number]>(
      'DELETE FROM conduct_due WHERE guild_id = ? AND kind = ? AND server = ? AND number = ? AND noted = ?',
    ),
    backOffDue: d.sql<never, [number, string, string, string, number, number]>(
      `UPDATE conduct_due SET failures = failures + 1, try_at = ?
       WHERE guild_id = ? AND kind = ? AND server = ? AND number = ? AND noted = ?`,
    ),
    // A deterministic id may name a finding withdrawn earlier: it comes back, its message edited, not posted anew.
    insertFinding: d.sql<never, [string, string, string, string, number, number, number, string, number]>(
      `INSERT INTO conduct_finding (guild_id, id, rule, subject, opened_at, first_at, last_at, hits, state, version,
         synced_version, sync_try_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', 1, 0, ?)
       ON CONFLICT (guild_id, id) DO UPDATE SET first_at = excluded.first_at, last_at = excluded.last_at,
         hits = excluded.hits, state = 'open', merged_into = NULL, version = conduct_finding.version + 1,
         sync_try_at = excluded.sync_try_at, sync_failures = 0`,
    ),
    updateHits: d.sql<never, [number, number, string, number, string, string]>(
      `UPDATE conduct_finding SET first_at = ?, last_at = ?, hits = ?, version = version + 1, sync_try_at = ?,
         sync_failures = 0
       WHERE guild_id = ? AND id = ?`,
    ),
    endFinding: d.sql<never, [string, string | null, number, string, string]>(
      `UPDATE conduct_finding SET state = ?, merged_into = ?, hits = '[]', version = version + 1, sync_try_at = ?,
         sync_failures = 0
       WHERE guild_id = ? AND id = ?`,
    ),
    findingsNear: d.select(FINDING).from<[string, string, string, number, number]>(
      `conduct_finding WHERE guild_id = ? AND rule = ? AND subject = ? AND last_at >= ? AND first_at <= ? AND ${LIVE}
         ORDER BY opened_at, id`,
    ),
    finding: d.select(FINDING).from<[string, string]>('conduct_finding WHERE guild_id = ? AND id = ?'),
    findingsOf: d
      .select(FINDING)
      .from<[string, number]>('conduct_finding WHERE guild_id = ? ORDER BY opened_at DESC, id LIMIT ?'),
    unsynced: d
      .select(FINDING)
      .from<[number, number]>(
        'conduct_finding WHERE synced_version < version AND sync_try_at <= ? ORDER BY sync_try_at LIMIT ?',
      ),
    writeDown: d.sql<never, [string, number, string, string, string]>(
      `UPDATE conduct_finding SET channel_id = ?, written_at = ?, nonce = ?, message_id = NULL
       WHERE guild_id = ? AND id = ? AND nonce IS NULL`,
    ),
    setMessage: d.sql<never, [string, string | null, string, number, string, string]>(
      `UPDATE conduct_finding SET channel_id = ?, message_id = ?, nonce = ?, written_at = ?
       WHERE guild_id = ? AND id = ?`,
    ),
    markSynced: d.sql<never, [number, number, string, string]>(
      `UPDATE conduct_finding SET synced_version = CASE WHEN synced_version > ? THEN synced_version ELSE ? END,
         sync_failures = 0
       WHERE guild_id = ? AND id = ?`,
    ),
    backOffSync: d.sql<never, [number, number, string, string]>(
      'UPDATE conduct_finding SET sync_try_at = ?, sync_failures = ? WHERE guild_id = ? AND id = ?',
    ),
    act: d.sql<never, [string, string, number, number, string, string]>(
      `UPDATE conduct_finding SET state = ?, acted_by = ?, acted_at = ?, version = version + 1, sync_try_at = ?
       WHERE guild_id = ? AND id = ? AND ${LIVE}`,
    ),
    sweepIds: d.sql<{ guild_id: string; id: string }, [number, number]>(
      'SELECT guild_id, id FROM conduct_finding WHERE last_at < ? ORDER BY last_at LIMIT ?',
    ),
    deleteFinding: d.sql<never, [string, string]>('DELETE FROM conduct_finding WHERE guild_id = ? AND id = ?'),
    putFinding: d.sql<never, unknown[]>(
      `INSERT INTO conduct_finding (guild_id, id, rule, subject, opened_at, first_at, last_at, hits, state,
         merged_into, acted_by, acted_at, version, synced_version, sync_try_at, sync_failures, channel_id, message_id,
         nonce, written_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, id) DO NOTHING`,
    ),
  };
}

/** The conduct guard's store on either engine, over the store's SQL runner. */
export class SqlConductStore implements ConductStore {
  private readonly sql: ReturnType<typeof conductStatements>;

  constructor(
    d: SqlDialect,
    private readonly runner: SqlRunner,
  ) {
    this.sql = conductStatements(d);
  }

  async settingsOf(guildId: string): Promise<ConductSettings> {
    const [row] = await this.runner.read(this.sql.settingsOf, [guildId]);
    return row ? toSettings(row) : { guildId, channelId: null, roleId: null, rules: DEFAULT_RULES };
  }

  async listSettings(): Promise<ConductSettings[]> {
    return (await this.runner.read(this.sql.listSettings, [])).map(toSettings);
  }

  async setChannel(guildId: string, channelId: string | null): Promise<void> {
    await this.runner.write([{ sql: this.sql.setChannel, params: [guildId, channelId] }]);
  }

  async setRole(guildId: string, roleId: string | null): Promise<void> {
    await this.runner.write([{ sql: this.sql.setRole, params: [guildId, roleId] }]);
  }

  async setRules(guildId: string, rules: ConductRules): Promise<void> {
    await this.runner.write([{ sql: this.sql.setRules, params: [guildId, JSON.stringify(rules)] }]);
  }

  noteDueWrites(
    items: ReadonlyArray<Pick<DueItem, 'guildId' | 'kind' | 'server' | 'number'>>,
    now: number,
  ): SqlWrite[] {
    return items.map((item) => ({
      sql: this.sql.noteDue,
      params: [item.guildId, item.kind, item.server, item.number, now],
    }));
  }

  async noteDue(
    items: ReadonlyArray<Pick<DueItem, 'guildId' | 'kind' | 'server' | 'number'>>,
    now: number,
  ): Promise<void> {
    if (items.length > 0) await this.runner.write(this.noteDueWrites(items, now));
  }

  async dueItems(now: number, limit: number): Promise<DueItem[]> {
    return (await this.runner.read(this.sql.dueItems, [now, limit])).map((row) => ({
      guildId: row.guild_id,
      kind: row.kind === 'shift' ? 'shift' : 'case',
      server: row.server,
      number: row.number,
      noted: row.noted,
      failures: row.failures,
    }));
  }

  async judged(
    item: DueItem,
    plans: readonly PlannedFindings[],
    now: number,
    alsoDue: ReadonlyArray<Pick<DueItem, 'guildId' | 'kind' | 'server' | 'number'>> = [],
  ): Promise<void> {
    await this.runner.write(this.judgedWrites({ item, plans, alsoDue }, now));
  }

  async judgedMany(entries: readonly JudgedItem[], now: number): Promise<void> {
    if (entries.length > 0) await this.runner.write(entries.flatMap((entry) => this.judgedWrites(entry, now)));
  }

  private judgedWrites({ item, plans, alsoDue }: JudgedItem, now: number): SqlWrite[] {
    const writes: SqlWrite[] = plans.flatMap((planned) => this.planWrites(planned, now));
    writes.push(...this.noteDueWrites(alsoDue, now));
    writes.push({ sql: this.sql.clearDue, params: [item.guildId, item.kind, item.server, item.number, item.noted] });
    return writes;
  }

  private planWrites({ guildId, rule, subject, plan }: PlannedFindings, now: number): SqlWrite[] {
    const writes: SqlWrite[] = [];
    for (const { id, isNew, hits } of plan.changed) {
      const first = Math.min(...hits.map((hit) => hit.at));
      const last = Math.max(...hits.map((hit) => hit.at));
      const text = JSON.stringify(hits);
      writes.push(
        isNew
          ? { sql: this.sql.insertFinding, params: [guildId, id, rule, subject, now, first, last, text, now] }
          : { sql: this.sql.updateHits, params: [first, last, text, now, guildId, id] },
      );
    }
    for (const { id, into } of plan.merged) {
      writes.push({ sql: this.sql.endFinding, params: ['merged', into, now, guildId, id] });
    }
    for (const id of plan.withdrawn) {
      writes.push({ sql: this.sql.endFinding, params: ['withdrawn', null, now, guildId, id] });
    }
    return writes;
  }

  async backOffDue(item: DueItem, tryAt: number): Promise<void> {
    await this.runner.write([
      { sql: this.sql.backOffDue, params: [tryAt, item.guildId, item.kind, item.server, item.number, item.noted] },
    ]);
  }

  async findingsNear(guildId: string, rule: RuleName, subject: string, from: number, to: number): Promise<Finding[]> {
    return (await this.runner.read(this.sql.findingsNear, [guildId, rule, subject, from, to])).map(toFinding);
  }

  async finding(guildId: string, id: string): Promise<Finding | undefined> {
    const [row] = await this.runner.read(this.sql.finding, [guildId, id]);
    return row && toFinding(row);
  }

  async findingsOf(guildId: string, limit: number): Promise<Finding[]> {
    return (await this.runner.read(this.sql.findingsOf, [guildId, limit])).map(toFinding);
  }

  async unsynced(now: number, limit: number): Promise<Finding[]> {
    return (await this.runner.read(this.sql.unsynced, [now, limit])).map(toFinding);
  }

  async writeDown(guildId: string, id: string, message: FindingMessage): Promise<Finding | undefined> {
    await this.runner.write([
      { sql: this.sql.writeDown, params: [message.channelId, message.writtenAt, message.nonce, guildId, id] },
    ]);
    return this.finding(guildId, id);
  }

  async setMessage(guildId: string, id: string, message: FindingMessage): Promise<void> {
    const { channelId, messageId, nonce, writtenAt } = message;
    await this.runner.write([
      { sql: this.sql.setMessage, params: [channelId, messageId, nonce, writtenAt, guildId, id] },
    ]);
  }

  async markSynced(guildId: string, id: string, version: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.markSynced, params: [version, version, guildId, id] }]);
  }

  async backOffSync(guildId: string, id: string, tryAt: number, failures: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.backOffSync, params: [tryAt, failures, guildId, id] }]);
  }

  async act(
    guildId: string,
    id: string,
    state: 'acknowledged' | 'dismissed',
    by: string,
    at: number,
  ): Promise<Finding | undefined> {
    const changed = await this.runner.write([{ sql: this.sql.act, params: [state, by, at, at, guildId, id] }]);
    return changed > 0 ? this.finding(guildId, id) : undefined;
  }

  async sweep(before: number, limit: number): Promise<number> {
    const rows = await this.runner.read(this.sql.sweepIds, [before, limit]);
    if (rows.length === 0) return 0;
    await this.runner.write(rows.map((row) => ({ sql: this.sql.deleteFinding, params: [row.guild_id, row.id] })));
    return rows.length;
  }

  async putFinding(finding: Finding): Promise<void> {
    const times = finding.hits.map((hit) => hit.at);
    const first = times.length === 0 ? finding.openedAt : Math.min(...times);
    const last = times.length === 0 ? finding.openedAt : Math.max(...times);
    const { message } = finding;
    await this.runner.write([
      {
        sql: this.sql.putFinding,
        params: [
          ...[finding.guildId, finding.id, finding.rule, finding.subject, finding.openedAt, first, last],
          ...[JSON.stringify(finding.hits), finding.state, finding.mergedInto, finding.actedBy, finding.actedAt],
          ...[finding.version, finding.syncedVersion, finding.openedAt, finding.syncFailures],
          ...[message?.channelId ?? null, message?.messageId ?? null, message?.nonce ?? null],
          message?.writtenAt ?? null,
        ],
      },
    ]);
  }
}

function toSettings(row: RowOf<typeof GUILD>): ConductSettings {
  return { guildId: row.guild_id, channelId: row.channel_id, roleId: row.role_id, rules: parseRules(row.rules) };
}

/** The rules as stored, each missing or malformed one at its default. */
export function parseRules(text: string): ConductRules {
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    stored = {};
  }
  const object = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const rules = {} as Record<RuleName, RuleSetting>;
  for (const rule of RULE_NAMES) {
    const value = object[rule] as Partial<RuleSetting> | undefined;
    const fallback = DEFAULT_RULES[rule];
    rules[rule] = {
      on: typeof value?.on === 'boolean' ? value.on : fallback.on,
      count: Number.isInteger(value?.count) ? (value?.count ?? fallback.count) : fallback.count,
      minutes: Number.isInteger(value?.minutes) ? (value?.minutes ?? fallback.minutes) : fallback.minutes,
    };
  }
  return rules;
}

const STATES: readonly FindingState[] = ['open', 'acknowledged', 'dismissed', 'withdrawn', 'merged'];

function toFinding(row: FindingRow): Finding {
  const state = STATES.find((known) => known === row.state) ?? 'open';
  return {
    guildId: row.guild_id,
    id: row.id,
    rule: RULE_NAMES.find((rule) => rule === row.rule) ?? 'off-shift',
    subject: row.subject,
    openedAt: row.opened_at,
    hits: parseHits(row.hits),
    state,
    mergedInto: row.merged_into,
    actedBy: row.acted_by,
    actedAt: row.acted_at,
    version: row.version,
    syncedVersion: row.synced_version,
    syncFailures: row.sync_failures,
    message:
      row.channel_id !== null && row.nonce !== null
        ? { channelId: row.channel_id, messageId: row.message_id, nonce: row.nonce, writtenAt: row.written_at ?? 0 }
        : null,
  };
}

function parseHits(text: string): Hit[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as Hit[]) : [];
  } catch {
    return [];
  }
}

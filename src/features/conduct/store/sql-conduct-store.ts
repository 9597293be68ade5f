import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner, SqlWrite } from '../../../store/sql-runner.js';
import { toFinding, toSettings } from './conduct-rows.js';
import { conductStatements } from './conduct-statements.js';
import type {
  ConductSettings,
  ConductStore,
  DueItem,
  Finding,
  FindingMessage,
  JudgedItem,
  PlannedFindings,
} from './conduct-store.js';
import { DEFAULT_RULES, type ConductRules, type RuleName } from './rule-settings.js';

/** Findings the oldest first, then by id (in bytes, on either engine). */
function byAge(a: Finding, b: Finding): number {
  return a.openedAt - b.openedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
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
    const rows = await this.runner.read(this.sql.findingsNear, [guildId, rule, subject, from, to]);
    return rows.map(toFinding).sort(byAge);
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

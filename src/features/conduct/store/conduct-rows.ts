import type { RowOf } from '../../../store/table-columns.js';
import type { FindingRow, GUILD } from './conduct-statements.js';
import type { ConductSettings, Finding, FindingState, Hit } from './conduct-store.js';
import { DEFAULT_RULES, RULE_NAMES, type ConductRules, type RuleName, type RuleSetting } from './rule-settings.js';

/*
 * The conduct guard's rows read back: settings and findings as the guard uses them, whatever a row holds (a rule or
 * a hit list written by another version is read at its default, never thrown).
 */

export function toSettings(row: RowOf<typeof GUILD>): ConductSettings {
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

export function toFinding(row: FindingRow): Finding {
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

import { wallDate } from '../../../base/time-zone.js';
import type { SqlRunner } from '../../../store/sql-runner.js';
import type { recordChartStatements } from './record-chart-statements.js';
import type { GuildDay, TimeRange } from './record-queries.js';

/**
 * A guild's days in a time zone (RecordQueries.guildDays): the database adds the record up by quarter hour, and
 * every zone's midnight falls on one, so the quarters are summed here into the zone's days.
 */
export async function readGuildDays(
  runner: SqlRunner,
  statements: ReturnType<typeof recordChartStatements>,
  guildId: string,
  range: TimeRange,
  timeZone: string,
): Promise<GuildDay[]> {
  const { from, to } = range;
  const rows = await runner.read(statements.guildQuarters, [guildId, from, to, guildId, from, to, guildId, from, to]);
  // Quarters in time order: the days of the zone come in order too.
  const days: GuildDay[] = [];
  for (const row of rows) {
    const day = wallDate(row.quarter, timeZone);
    let last = days.at(-1);
    if (last?.day !== day) {
      last = { day, shiftSeconds: 0, cases: 0, modcalls: 0 };
      days.push(last);
    }
    last.shiftSeconds += row.shift_seconds;
    last.cases += row.cases;
    last.modcalls += row.modcalls;
  }
  return days;
}

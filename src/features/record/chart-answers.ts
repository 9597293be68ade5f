import type { APIEmbed } from 'discord.js';

import type { ChartDrawer } from './chart-renderer.js';
import { daysOfPeriod, describeHoursPerPeriod, hoursPerPeriod, worthDrawing } from './hours-per-day.js';
import type { Board, DaySeconds, Standing, TimeRange } from './store/record-queries.js';

/** A chart to attach to a reply: its PNG, the name the embed's `attachment://` names, and its alt text. */
export interface ChartFile {
  png: Buffer;
  name: string;
  description: string;
}

/** Discord's limit on an embed's description is 4096; the numbers beside a chart need far less. */
const NUMBERS_MAX = 2000;

/**
 * /staff stats' picture: the member's hours on shift per day of the period (per week past 62 days), as an embed
 * of its own: the same numbers in its text, the chart as its image. Undefined for a period of one day, without
 * time on shift, or when the chart could not be drawn.
 */
export async function hoursChartAnswer(
  charts: ChartDrawer,
  range: TimeRange,
  now: number,
  found: readonly DaySeconds[],
): Promise<{ file: ChartFile; embed: APIEmbed } | undefined> {
  const days = daysOfPeriod(range, now, found);
  const hours = hoursPerPeriod(days);
  if (!worthDrawing(hours)) return undefined;
  const png = await charts.draw({ kind: 'hours', hours });
  if (!png) return undefined;
  const file: ChartFile = { png, name: 'hours.png', description: `Hours on duty per ${hours.unit}` };
  return {
    file,
    embed: {
      title: `Hours on duty per ${hours.unit} (UTC)`,
      description: describeHoursPerPeriod(hours, NUMBERS_MAX),
      image: { url: `attachment://${file.name}` },
    },
  };
}

/**
 * /leaderboard's picture: the places shown as bars (the text lists the same); undefined for fewer than two, or
 * when it could not be drawn.
 */
export async function leaderboardChartFile(
  charts: ChartDrawer,
  standings: readonly Standing[],
  board: Board,
): Promise<ChartFile | undefined> {
  if (standings.length < 2) return undefined;
  const png = await charts.draw({ kind: 'leaderboard', standings, board });
  if (!png) return undefined;
  return {
    png,
    name: 'leaderboard.png',
    description: `The top ${standings.length} as bars`,
  };
}

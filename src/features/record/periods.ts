import type { SlashCommandStringOption } from 'discord.js';

/** The periods /staff stats and /leaderboard answer for; days and weeks are UTC, weeks start on Monday. */
export const PERIODS = ['today', 'this-week', 'last-week', 'this-month', '30-days', 'all'] as const;
export type Period = (typeof PERIODS)[number];

const DAY_MS = 24 * 60 * 60 * 1000;

/** The choices of a `period` option, as Discord shows them. */
export const PERIOD_CHOICES: ReadonlyArray<{ name: string; value: Period }> = [
  { name: 'today (UTC)', value: 'today' },
  { name: 'this week (from Monday, UTC)', value: 'this-week' },
  { name: 'last week', value: 'last-week' },
  { name: 'this month', value: 'this-month' },
  { name: 'the last 30 days', value: '30-days' },
  { name: 'all time', value: 'all' },
];

/** A period's times: from `from` (included) to `to` (excluded), and its name in an answer. */
export interface PeriodRange {
  from: number;
  to: number;
  label: string;
}

/** The period's range at `now`; a period a member did not choose is this month. */
export function periodRange(period: Period, now: number): PeriodRange {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  // getUTCDay: 0 is Sunday; Monday starts the week.
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  const date = new Date(now);
  switch (period) {
    case 'today':
      return { from: today, to: now + 1, label: 'today (UTC)' };
    case 'this-week':
      return { from: monday, to: now + 1, label: 'this week' };
    case 'last-week':
      return { from: monday - 7 * DAY_MS, to: monday, label: 'last week' };
    case 'this-month':
      return { from: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1), to: now + 1, label: 'this month' };
    case '30-days':
      return { from: now - 30 * DAY_MS, to: now + 1, label: 'the last 30 days' };
    case 'all':
      return { from: 0, to: Number.MAX_SAFE_INTEGER, label: 'all time' };
  }
}

export function isPeriod(value: string | null): value is Period {
  return value !== null && (PERIODS as readonly string[]).includes(value);
}

/** The `period` option of the record's commands: one of {@link PERIOD_CHOICES}, this month unless chosen. */
export function periodOption(option: SlashCommandStringOption): SlashCommandStringOption {
  return option
    .setName('period')
    .setDescription('Which period (this month unless chosen)')
    .addChoices(...PERIOD_CHOICES);
}

/** The period a member chose with {@link periodOption}, or this month. */
export function chosenPeriod(value: string | null): Period {
  return isPeriod(value) ? value : 'this-month';
}

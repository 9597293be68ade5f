/**
 * Chart images for /staff stats and /leaderboard, drawn without a browser: ECharts builds the chart as an SVG
 * string (its server-side renderer), then resvg rasterises it to a PNG. Both run synchronously: this module is
 * loaded only in the chart process (chart-process.ts), whose event loop has nothing else to do. Text is drawn
 * with DejaVu Sans from the dejavu-fonts-ttf package: the machine's own fonts are not looked at (a slim container
 * has none), so every host draws the same picture.
 */
import { createRequire } from 'node:module';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import type * as EChartsModule from 'echarts/core';

import { truncateText } from '../../base/truncate-text.js';
import { dayLabel, type HoursPerPeriod } from './hours-per-day.js';
import type { Board, GuildDay, Standing } from './store/record-queries.js';

const requireHere = createRequire(import.meta.url);
/**
 * ECharts' one-file build of its common charts (bar, with title, grid and the SVG renderer): it loads in a tenth
 * of the time of the modules `echarts/core` imports one by one, and holds a fifth of their memory.
 */
const echarts = requireHere('echarts/dist/echarts.common.min') as typeof EChartsModule;

/** The size of every chart, in pixels: wide enough for 31 days' labels, within Discord's embed image. */
export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 400;

const FONT_FAMILY = 'DejaVu Sans';
const FONT_FILE = requireHere.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

/** Colours that read on Discord's dark and light themes alike: a dark card of its own, blurple bars. */
export const CHART_COLOURS = {
  background: '#2b2d31',
  text: '#dbdee1',
  muted: '#949ba4',
  gridLine: '#3f4147',
  bar: '#5865f2',
  cases: '#f23f43',
  modcalls: '#f0b232',
} as const;
const {
  background: BACKGROUND,
  text: TEXT,
  muted: MUTED,
  gridLine: GRID_LINE,
  bar: BAR,
  cases: CASES,
  modcalls: MODCALLS,
} = CHART_COLOURS;

const RESVG_OPTIONS: ResvgRenderOptions = {
  font: {
    fontFiles: [FONT_FILE],
    loadSystemFonts: false,
    defaultFontFamily: FONT_FAMILY,
    sansSerifFamily: FONT_FAMILY,
  },
  background: BACKGROUND,
  fitTo: { mode: 'original' },
  logLevel: 'off',
};

/** What the chart process is asked to draw. */
export type ChartRequest =
  | { readonly kind: 'hours'; readonly hours: HoursPerPeriod }
  | { readonly kind: 'leaderboard'; readonly standings: readonly Standing[]; readonly board: Board }
  | { readonly kind: 'week'; readonly days: readonly GuildDay[]; readonly timeZone: string };

/** The chart a request asks for, as a PNG. */
export function drawChart(request: ChartRequest): Buffer {
  switch (request.kind) {
    case 'hours':
      return svgToPng(hoursSvg(request.hours));
    case 'leaderboard':
      return svgToPng(leaderboardSvg(request.standings, request.board));
    case 'week':
      return svgToPng(weekSvg(request.days, request.timeZone));
  }
}

/** One chart as an SVG string. */
function chartSvg(option: EChartsModule.EChartsCoreOption): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: CHART_WIDTH, height: CHART_HEIGHT });
  try {
    chart.setOption({
      animation: false,
      backgroundColor: BACKGROUND,
      textStyle: { fontFamily: FONT_FAMILY, color: TEXT },
      ...option,
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** An SVG string as a PNG. */
function svgToPng(svg: string): Buffer {
  return new Resvg(svg, RESVG_OPTIONS).render().asPng();
}

const axisStyle = {
  axisLine: { lineStyle: { color: MUTED } },
  axisLabel: { color: MUTED },
  splitLine: { lineStyle: { color: GRID_LINE } },
};

/** Hours as the charts label them: "2.5". */
function hours(seconds: number): number {
  return Math.round(seconds / 360) / 10;
}

/**
 * A member's hours on shift per day of a period (every day of it, 0 where none; see daysOfPeriod and
 * hoursPerPeriod): a bar per day, or per week (from Monday) for a period of more than 62 days.
 */
export function hoursSvg({ unit, buckets }: HoursPerPeriod): string {
  return chartSvg({
    title: {
      text: unit === 'day' ? 'Hours on duty per day (UTC)' : 'Hours on duty per week (UTC, from Monday)',
      left: 'center',
      textStyle: { color: TEXT, fontSize: 16, fontWeight: 'normal' },
    },
    grid: { left: 48, right: 24, top: 56, bottom: 40 },
    xAxis: {
      type: 'category',
      data: buckets.map((bucket) => dayLabel(bucket.start)),
      ...axisStyle,
      axisTick: { alignWithLabel: true },
    },
    yAxis: { type: 'value', name: 'h', nameTextStyle: { color: MUTED }, minInterval: 1, ...axisStyle },
    series: [
      {
        type: 'bar',
        data: buckets.map((bucket) => hours(bucket.seconds)),
        itemStyle: { color: BAR },
        // Each bar's value on it, when the bars are wide enough for one.
        label: { show: buckets.length <= 31, position: 'top', color: TEXT, fontSize: 10 },
      },
    ],
  });
}

const BOARD_AXES: Record<Board, string> = {
  shifts: 'Hours on shift',
  cases: 'Cases made',
  modcalls: 'Modcalls claimed',
};

/**
 * A leaderboard's places: a bar per member, first at the top, labelled "#1 name" (the name the standing carries,
 * else the place alone) with the value at the bar's end (hours for shifts).
 */
export function leaderboardSvg(standings: readonly Standing[], board: Board): string {
  const labels = standings.map(
    (standing, i) => `#${i + 1}` + (standing.name !== null ? ` ${truncateText(standing.name, 16)}` : ''),
  );
  const values = standings.map((standing) => (board === 'shifts' ? hours(standing.value) : standing.value));
  return chartSvg({
    title: { text: BOARD_AXES[board], left: 'center', textStyle: { color: TEXT, fontSize: 16, fontWeight: 'normal' } },
    // Room on the left for "#10 " and a name of 16 characters.
    grid: { left: 200, right: 56, top: 48, bottom: 32 },
    xAxis: { type: 'value', minInterval: 1, ...axisStyle },
    // The first place on top: a category axis draws its first item at the bottom.
    yAxis: { type: 'category', data: [...labels].reverse(), ...axisStyle, axisLabel: { color: TEXT } },
    series: [
      {
        type: 'bar',
        data: [...values].reverse(),
        itemStyle: { color: BAR },
        label: { show: true, position: 'right', color: TEXT },
      },
    ],
  });
}

/**
 * The weekly digest's picture: hours on duty per day as bars (left axis), cases and modcalls per day as lines
 * (right axis), one point per day given (every day of the week, 0 where none).
 */
export function weekSvg(days: readonly GuildDay[], timeZone: string): string {
  return chartSvg({
    title: {
      text: `The week per day (${timeZone})`,
      left: 'center',
      textStyle: { color: TEXT, fontSize: 16, fontWeight: 'normal' },
    },
    legend: { bottom: 4, textStyle: { color: TEXT }, data: ['Hours on duty', 'Cases', 'Modcalls'] },
    grid: { left: 48, right: 48, top: 56, bottom: 64 },
    xAxis: { type: 'category', data: days.map((day) => dayLabel(day.day)), ...axisStyle },
    yAxis: [
      { type: 'value', name: 'h', nameTextStyle: { color: MUTED }, minInterval: 1, ...axisStyle },
      { type: 'value', minInterval: 1, ...axisStyle, splitLine: { show: false } },
    ],
    series: [
      {
        name: 'Hours on duty',
        type: 'bar',
        data: days.map((day) => hours(day.shiftSeconds)),
        itemStyle: { color: BAR },
        label: { show: true, position: 'top', color: TEXT, fontSize: 10 },
      },
      { name: 'Cases', type: 'line', yAxisIndex: 1, data: days.map((day) => day.cases), itemStyle: { color: CASES } },
      {
        name: 'Modcalls',
        type: 'line',
        yAxisIndex: 1,
        data: days.map((day) => day.modcalls),
        itemStyle: { color: MODCALLS },
      },
    ],
  });
}

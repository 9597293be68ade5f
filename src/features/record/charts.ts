/**
 * Chart images for /staff stats and /leaderboard, drawn without a browser: ECharts builds the chart as an SVG
 * string (its server-side renderer), then resvg rasterises it to a PNG on libuv's thread pool (renderAsync), so
 * only the SVG step runs on the event loop. Text is drawn with DejaVu Sans from the dejavu-fonts-ttf package:
 * the machine's own fonts are not looked at (a slim container has none), so every host draws the same picture.
 */
import { createRequire } from 'node:module';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import type * as EChartsModule from 'echarts/core';

import { truncateText } from '../../base/truncate-text.js';
import type { Board, Standing } from '../../store/record-queries.js';
import { dayLabel, hoursPerPeriod, type HoursPerPeriod } from './hours-per-day.js';

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
} as const;
const { background: BACKGROUND, text: TEXT, muted: MUTED, gridLine: GRID_LINE, bar: BAR } = CHART_COLOURS;

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

/** One chart as an SVG string: the synchronous step (it runs on the event loop). */
export function chartSvg(option: EChartsModule.EChartsCoreOption): string {
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

/** An SVG string as a PNG, rasterised off the event loop. */
export async function svgToPng(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, RESVG_OPTIONS);
  return image.asPng();
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
 * A member's hours on shift per day of a period (every day of it, 0 where none; see daysOfPeriod), as a PNG:
 * a bar per day, or per week (from Monday) for a period of more than 62 days.
 */
export function hoursPerDayChart(days: ReadonlyArray<{ day: number; seconds: number }>): Promise<Buffer> {
  return svgToPng(chartSvgOfHours(hoursPerPeriod(days)));
}

/** The hours chart's SVG (the synchronous step of {@link hoursPerDayChart}). */
export function chartSvgOfHours({ unit, buckets }: HoursPerPeriod): string {
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
 * A leaderboard's places as a PNG: a bar per member, first at the top, labelled "#1 name" (the name the
 * standing carries, else the place alone) with the value at the bar's end (hours for shifts).
 */
export function leaderboardChart(standings: readonly Standing[], board: Board): Promise<Buffer> {
  return svgToPng(leaderboardSvg(standings, board));
}

/** The leaderboard chart's SVG (the synchronous step of {@link leaderboardChart}). */
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

import { describe, expect, it } from 'vitest';

import {
  CHART_COLOURS,
  CHART_HEIGHT,
  CHART_WIDTH,
  drawChart,
  leaderboardSvg,
} from '../../../src/features/record/charts.js';
import { hoursPerPeriod } from '../../../src/features/record/hours-per-day.js';
import { decodePng, pixelsNear } from '../../helpers/png.js';

const DAY = 86_400_000;
const NOV_1 = Date.UTC(2026, 10, 1);

/** What every chart must be: a real PNG of the chart's size, mostly its background, with bars and text on it. */
function expectChart(png: Buffer): void {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  // IHDR: the first chunk, width and height after its length and type.
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
  const image = decodePng(png);
  const all = image.width * image.height;
  expect(pixelsNear(image, CHART_COLOURS.background, 2)).toBeGreaterThan(all * 0.3);
  expect(pixelsNear(image, CHART_COLOURS.bar, 8)).toBeGreaterThan(all * 0.03);
  // The title and the labels, drawn in the text colour with the shipped font (no font: no text at all).
  expect(pixelsNear(image, CHART_COLOURS.text, 16)).toBeGreaterThan(150);
}

describe('the record charts', () => {
  it('draws a member’s hours per day as a PNG with bars and labels', () => {
    const days = Array.from({ length: 30 }, (_, i) => ({ day: NOV_1 + i * DAY, seconds: (i % 5) * 3600 }));
    expectChart(drawChart({ kind: 'hours', hours: hoursPerPeriod(days) }));
  });

  it('draws a long period a week per bar', () => {
    const days = Array.from({ length: 200 }, (_, i) => ({ day: NOV_1 + i * DAY, seconds: 7200 }));
    expectChart(drawChart({ kind: 'hours', hours: hoursPerPeriod(days) }));
  });

  it('draws a leaderboard as bars, first on top, names escaped in the SVG', () => {
    const standings = Array.from({ length: 10 }, (_, i) => ({
      memberId: String(400 + i),
      name: i === 1 ? 'Mia <b>&"' : i % 2 ? `Staff ${i}` : null,
      value: (10 - i) * 3600,
    }));
    const svg = leaderboardSvg(standings, 'shifts');
    expect(svg).toContain('#2 Mia &lt;b&gt;&amp;');
    expect(svg).not.toContain('<b>');
    // Hours for the shifts board: 10 h for the first place.
    expect(svg).toMatch(/>10<\/text>/);
    expect(svg.indexOf('#1')).toBeGreaterThan(-1);
    expectChart(drawChart({ kind: 'leaderboard', standings, board: 'shifts' }));
    expectChart(drawChart({ kind: 'leaderboard', standings: standings.slice(0, 2), board: 'cases' }));
  });
});

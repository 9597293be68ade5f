import { afterEach, describe, expect, it } from 'vitest';

import { RUNTIME_TIMERS } from '../../../../src/base/timers.js';
import { ChartRenderer, type ChartRendererDeps } from '../../../../src/features/record/chart-renderer.js';
import type { ChartRequest } from '../../../../src/features/record/charts.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { decodePng } from '../../../helpers/png.js';

const DAY = 86_400_000;
const HOURS: ChartRequest = {
  kind: 'hours',
  hours: { unit: 'day', buckets: Array.from({ length: 7 }, (_, i) => ({ start: i * DAY, seconds: i * 3600 })) },
};
const BOARD: ChartRequest = {
  kind: 'leaderboard',
  board: 'cases',
  standings: [
    { memberId: '1', name: 'Mira', value: 9 },
    { memberId: '2', name: null, value: 4 },
  ],
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the chart process', () => {
  const renderers: ChartRenderer[] = [];
  afterEach(async () => {
    await Promise.all(renderers.splice(0).map((renderer) => renderer.stop()));
  });

  function renderer(options: Partial<ChartRendererDeps> = {}) {
    const logs = captureLogs();
    const made = new ChartRenderer({ timers: RUNTIME_TIMERS, logger: logs.logger, ...options });
    made.start();
    renderers.push(made);
    return { renderer: made, logs };
  }

  it('draws in a process of its own, which exits once idle; the next chart starts another', async () => {
    const { renderer: charts } = renderer({ idleMs: 300 });
    expect(charts.pid).toBeUndefined();
    const [hours, board] = await Promise.all([charts.draw(HOURS), charts.draw(BOARD)]);
    const pid = charts.pid;
    expect(pid).toBeDefined();
    expect(pid).not.toBe(process.pid);
    expect(decodePng(hours ?? Buffer.alloc(0))).toMatchObject({ width: 800, height: 400 });
    expect(decodePng(board ?? Buffer.alloc(0))).toMatchObject({ width: 800, height: 400 });

    await until(() => charts.pid === undefined && !alive(pid ?? 0), 'the idle chart process to exit');
    expect(decodePng((await charts.draw(BOARD)) ?? Buffer.alloc(0)).width).toBe(800);
    expect(charts.pid).toBeDefined();
    expect(charts.pid).not.toBe(pid);
  });

  it('hands over to a new process after its share of charts, once that one is ready; every chart is answered', async () => {
    const { renderer: charts } = renderer({ chartsPerProcess: 3 });
    const pids: Array<number | undefined> = [];
    const drawn: Array<Buffer | undefined> = [];
    // One after the other, as staff ask: the successor started at the first chart is ready a moment later.
    // The process that draws each chart: the current one when it is asked (the first chart starts one).
    while (new Set(pids).size < 3 && pids.length < 60) {
      const current = charts.pid;
      const drawing = charts.draw(pids.length % 2 ? HOURS : BOARD);
      pids.push(current ?? charts.pid);
      drawn.push(await drawing);
    }
    const [a, b, c] = [...new Set(pids)];
    expect(c).toBeDefined();
    // Each process drew at least its share before handing over.
    expect(pids.filter((pid) => pid === a).length).toBeGreaterThanOrEqual(3);
    expect(pids.filter((pid) => pid === b).length).toBeGreaterThanOrEqual(3);
    expect(drawn.map((png) => decodePng(png ?? Buffer.alloc(0)).width)).toEqual(pids.map(() => 800));
    await until(() => !alive(a ?? 0) && !alive(b ?? 0), 'the retired chart processes to exit');
    expect(alive(c ?? 0)).toBe(true);
  });

  it('answers without the chart when its process is killed while drawing, and draws the next in a new one', async () => {
    const { renderer: charts, logs } = renderer();
    const drawing = charts.draw(HOURS);
    const pid = charts.pid ?? 0;
    process.kill(pid, 'SIGKILL');
    expect(await drawing).toBeUndefined();
    expect(logs.text()).toContain('the chart process exited while drawing');

    const next = await charts.draw(HOURS);
    expect(decodePng(next ?? Buffer.alloc(0)).width).toBe(800);
    expect(charts.pid).not.toBe(pid);
  });

  it('gives up a chart that takes too long, ending its process', async () => {
    // Starting the process alone takes longer than this.
    const { renderer: charts, logs } = renderer({ timeoutMs: 5 });
    const drawing = charts.draw(HOURS);
    const pid = charts.pid ?? 0;
    expect(await drawing).toBeUndefined();
    expect(logs.text()).toContain('a chart took too long to draw; its process is ended');
    await until(() => !alive(pid), 'the hung chart process to end');
  });

  it('answers without the chart when drawing fails, and the process goes on drawing', async () => {
    const { renderer: charts, logs } = renderer();
    const broken = { kind: 'hours', hours: { unit: 'day' } } as unknown as ChartRequest;
    expect(await charts.draw(broken)).toBeUndefined();
    expect(logs.text()).toContain('a chart could not be drawn; the answer goes without it');
    const pid = charts.pid;
    expect(decodePng((await charts.draw(BOARD)) ?? Buffer.alloc(0)).width).toBe(800);
    expect(charts.pid).toBe(pid);
  });

  it('ends its process when the bot stops, and draws nothing after', async () => {
    const { renderer: charts } = renderer();
    await charts.draw(BOARD);
    const pid = charts.pid ?? 0;
    expect(alive(pid)).toBe(true);
    await charts.stop();
    expect(alive(pid)).toBe(false);
    expect(await charts.draw(BOARD)).toBeUndefined();
    expect(charts.pid).toBeUndefined();
  });
});

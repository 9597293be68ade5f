import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { Logger } from '../../base/logger.js';
import type { Timers } from '../../base/timers.js';
import type { Job } from '../feature.js';
import type { ChartProcessAnswer, ChartProcessReady, ChartProcessRequest } from './chart-process.js';
import type { ChartRequest } from './charts.js';

/** Draws chart images; undefined when it could not (the answer then goes without its picture). */
export interface ChartDrawer {
  draw(chart: ChartRequest): Promise<Buffer | undefined>;
}

/** How long the chart process waits for the next chart before it exits and gives its memory back. */
const DEFAULT_IDLE_MS = 60_000;
/** A chart not drawn in this time is given up, and its process ended (it hangs, or the machine is starved). */
const DEFAULT_TIMEOUT_MS = 15_000;
/**
 * Charts one process draws before it is replaced: resvg-js keeps about 1.6 MB of native memory per chart that
 * no collection frees (its issue #216, measured here at 1.65 MB a chart over 300), so a process is retired while
 * it is small (about 65 MB at start, 130 MB after 40 charts).
 */
const CHARTS_PER_PROCESS = 40;
/**
 * The process that takes over is started this many charts before: it takes about 0.3 s to start (more on a busy
 * machine), so charts asked one after the other never wait for it.
 */
const SUCCESSOR_AHEAD = 10;

export interface ChartRendererDeps {
  timers: Timers;
  logger: Logger;
  idleMs?: number | undefined;
  timeoutMs?: number | undefined;
  chartsPerProcess?: number | undefined;
}

/** One chart process: how many charts it was asked for, and whether it takes more. */
interface ChartProcess {
  readonly child: ChildProcess;
  asked: number;
  retired: boolean;
  /** It has loaded the drawing libraries (it said so). */
  ready: boolean;
}

interface Waiting {
  chartProcess: ChartProcess;
  resolve(png: Buffer | undefined): void;
  timeout: unknown;
}

/**
 * Draws charts in a process of its own (chart-process.ts), started at the first chart and ended after a minute
 * without one, or once it has drawn its share. The renderer holds native memory once it has drawn (resvg's
 * images and fonts, ECharts), which a process that exits gives back to the machine and the bot's own never
 * holds. A chart process that fails, exits or hangs costs its charts, never the answer: those answers go without
 * a picture, and the next chart starts a new process.
 */
export class ChartRenderer implements ChartDrawer, Job {
  readonly #waiting = new Map<number, Waiting>();
  /** Every chart process not yet exited: the current one, and retired ones finishing their charts. */
  readonly #live = new Set<ChartProcess>();
  #current: ChartProcess | undefined;
  /** The process that takes over from the current one once it has drawn its share, started early. */
  #successor: ChartProcess | undefined;
  #nextId = 0;
  #idle: unknown;
  #stopped = false;

  constructor(private readonly deps: ChartRendererDeps) {}

  start(): void {
    this.#stopped = false;
  }

  /** Ends every chart process; charts being drawn are given up. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.deps.timers.clearTimeout(this.#idle);
    await Promise.all(
      [...this.#live].map(({ child }) => {
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        // Held open until it has exited: an idle process no longer keeps the event loop alive on its own.
        child.ref();
        child.kill();
        return exited;
      }),
    );
  }

  /** The current chart process's id, if one runs (tests and the benchmark watch it). */
  get pid(): number | undefined {
    return this.#current?.child.pid;
  }

  draw(chart: ChartRequest): Promise<Buffer | undefined> {
    if (this.#stopped) return Promise.resolve(undefined);
    const chartProcess = (this.#current ??= this.#spawn());
    chartProcess.asked += 1;
    const share = this.deps.chartsPerProcess ?? CHARTS_PER_PROCESS;
    if (this.#successor === undefined && chartProcess.asked >= share - SUCCESSOR_AHEAD) this.#successor = this.#spawn();
    // Past its share, a process hands over once its successor is ready: a chart never waits for a process to start.
    const successor = this.#successor;
    const itsLast = chartProcess.asked >= share && successor?.ready === true;
    const id = (this.#nextId += 1);
    this.deps.timers.clearTimeout(this.#idle);
    const { child } = chartProcess;
    return new Promise((resolve) => {
      const timeout = this.deps.timers.setTimeout(() => {
        this.deps.logger.warn({ pid: child.pid }, 'a chart took too long to draw; its process is ended');
        child.kill('SIGKILL');
      }, this.deps.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      this.#waiting.set(id, { chartProcess, resolve, timeout });
      holdOpen(child, true);
      const request: ChartProcessRequest = { id, chart };
      // A process that has just died cannot be written to: its exit gives this chart up with the others.
      child.send(request, (error) => {
        if (error) child.kill('SIGKILL');
      });
      if (itsLast && successor) {
        this.#retire(chartProcess);
        this.#successor = undefined;
        this.#current = successor;
        this.#idleIn(successor);
      }
    });
  }

  /** A new chart process; it keeps the event loop alive only while a chart is awaited of it. */
  #spawn(): ChartProcess {
    const chartProcess: ChartProcess = { child: forkChartProcess(), asked: 0, retired: false, ready: false };
    const { child } = chartProcess;
    child.on('message', (message: ChartProcessAnswer | ChartProcessReady) => {
      if ('ready' in message) chartProcess.ready = true;
      else this.#answered(chartProcess, message);
    });
    child.on('error', (error) => this.deps.logger.warn({ err: error.message }, 'the chart process failed'));
    child.once('exit', (code, signal) => this.#exited(chartProcess, code, signal));
    holdOpen(child, false);
    this.#live.add(chartProcess);
    return chartProcess;
  }

  #answered(chartProcess: ChartProcess, answer: ChartProcessAnswer): void {
    const waiting = this.#waiting.get(answer.id);
    if (!waiting) return;
    this.#waiting.delete(answer.id);
    this.deps.timers.clearTimeout(waiting.timeout);
    if ('error' in answer) {
      this.deps.logger.warn({ reason: answer.error }, 'a chart could not be drawn; the answer goes without it');
      waiting.resolve(undefined);
    } else {
      waiting.resolve(Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength));
    }
    if (this.#drawing(chartProcess)) return;
    holdOpen(chartProcess.child, false);
    if (chartProcess.retired) chartProcess.child.disconnect();
    else this.#idleIn(chartProcess);
  }

  /** Retires the process, and its successor if one was started, if it is asked nothing for the idle time. */
  #idleIn(chartProcess: ChartProcess): void {
    this.deps.timers.clearTimeout(this.#idle);
    this.#idle = this.deps.timers.setTimeout(() => {
      this.#retire(chartProcess);
      if (this.#successor) this.#retire(this.#successor);
    }, this.deps.idleMs ?? DEFAULT_IDLE_MS);
  }

  #drawing(chartProcess: ChartProcess): boolean {
    for (const waiting of this.#waiting.values()) if (waiting.chartProcess === chartProcess) return true;
    return false;
  }

  /**
   * The process takes no more charts; it is told to go (it exits when its channel closes) once it has answered
   * those it has. The next chart starts another.
   */
  #retire(chartProcess: ChartProcess): void {
    chartProcess.retired = true;
    if (this.#current === chartProcess) this.#current = undefined;
    if (this.#successor === chartProcess) this.#successor = undefined;
    if (!this.#drawing(chartProcess) && chartProcess.child.connected) chartProcess.child.disconnect();
  }

  #exited(chartProcess: ChartProcess, code: number | null, signal: NodeJS.Signals | null): void {
    this.#live.delete(chartProcess);
    if (this.#successor === chartProcess) this.#successor = undefined;
    if (this.#current === chartProcess) {
      this.#current = undefined;
      this.deps.timers.clearTimeout(this.#idle);
    }
    const lost = [...this.#waiting].filter(([, waiting]) => waiting.chartProcess === chartProcess);
    if (lost.length === 0) return;
    if (!this.#stopped) {
      this.deps.logger.warn(
        { code, signal, charts: lost.length },
        'the chart process exited while drawing; those answers go without their charts',
      );
    }
    for (const [id, waiting] of lost) {
      this.#waiting.delete(id);
      this.deps.timers.clearTimeout(waiting.timeout);
      waiting.resolve(undefined);
    }
  }
}

/**
 * While a chart is awaited, its process keeps the bot's event loop alive (a chart asked is answered); idle, it
 * does not (the bot never waits for its chart process to exit: stop() ends it).
 */
function holdOpen(child: ChildProcess, hold: boolean): void {
  if (hold) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

/**
 * Forks chart-process beside this module: the compiled JavaScript in a production install, the TypeScript source
 * through tsx where the bot runs from source (tests, the demo, `npm run dev`). The process is given no
 * environment of the bot's (it needs none, and so holds no secret).
 */
function forkChartProcess(): ChildProcess {
  const here = import.meta.url;
  const fromSource = here.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./chart-process.${fromSource ? 'ts' : 'js'}`, here));
  const execArgv = fromSource ? ['--import', pathToFileURL(createRequire(here).resolve('tsx')).href] : [];
  return fork(entry, [], {
    execArgv,
    env: { PATH: process.env['PATH'] ?? '' },
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

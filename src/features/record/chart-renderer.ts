import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { Logger } from '../../base/logger.js';
import type { Timers } from '../../base/timers.js';
import type { Job } from '../feature.js';
import type { ChartProcessAnswer, ChartProcessRequest } from './chart-process.js';
import type { ChartRequest } from './charts.js';

/** Draws chart images; undefined when it could not (the answer then goes without its picture). */
export interface ChartDrawer {
  draw(chart: ChartRequest): Promise<Buffer | undefined>;
}

/** How long the chart process waits for the next chart before it exits and gives its memory back. */
const DEFAULT_IDLE_MS = 60_000;
/** A chart not drawn in this time is given up, and its process ended (it hangs, or the machine is starved). */
const DEFAULT_TIMEOUT_MS = 15_000;

export interface ChartRendererDeps {
  timers: Timers;
  logger: Logger;
  idleMs?: number | undefined;
  timeoutMs?: number | undefined;
}

interface Waiting {
  child: ChildProcess;
  resolve(png: Buffer | undefined): void;
  timeout: unknown;
}

/**
 * Draws charts in a process of its own (chart-process.ts), started at the first chart and ended after a minute
 * without one. The renderer holds tens of MB of native memory once it has drawn (resvg's images and fonts,
 * ECharts), which a process that exits gives back to the machine and the bot's own never holds. A chart process
 * that fails, exits or hangs costs its charts, never the answer: those answers go without a picture, and the
 * next chart starts a new process.
 */
export class ChartRenderer implements ChartDrawer, Job {
  readonly #waiting = new Map<number, Waiting>();
  #child: ChildProcess | undefined;
  #nextId = 0;
  #idle: unknown;
  #stopped = false;

  constructor(private readonly deps: ChartRendererDeps) {}

  start(): void {
    this.#stopped = false;
  }

  /** Ends the chart process; charts being drawn are given up. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const child = this.#child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill();
    await exited;
  }

  /** The chart process's id while one runs (tests and the benchmark watch it). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  draw(chart: ChartRequest): Promise<Buffer | undefined> {
    if (this.#stopped) return Promise.resolve(undefined);
    const child = this.#running();
    const id = (this.#nextId += 1);
    this.deps.timers.clearTimeout(this.#idle);
    return new Promise((resolve) => {
      const timeout = this.deps.timers.setTimeout(() => {
        this.deps.logger.warn({ pid: child.pid }, 'a chart took too long to draw; its process is ended');
        child.kill('SIGKILL');
      }, this.deps.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      this.#waiting.set(id, { child, resolve, timeout });
      holdOpen(child, true);
      const request: ChartProcessRequest = { id, chart };
      // A process that has just died cannot be written to: its exit gives this chart up with the others.
      child.send(request, (error) => {
        if (error) child.kill('SIGKILL');
      });
    });
  }

  #running(): ChildProcess {
    if (this.#child) return this.#child;
    const child = forkChartProcess();
    child.on('message', (answer: ChartProcessAnswer) => this.#answered(answer));
    child.on('error', (error) => this.deps.logger.warn({ err: error.message }, 'the chart process failed'));
    child.once('exit', (code, signal) => this.#exited(child, code, signal));
    this.#child = child;
    return child;
  }

  #answered(answer: ChartProcessAnswer): void {
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
    if (this.#waiting.size === 0) {
      holdOpen(waiting.child, false);
      this.#idle = this.deps.timers.setTimeout(() => this.#retire(), this.#idleMs);
    }
  }

  get #idleMs(): number {
    return this.deps.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** Idle: the process is told to go (it exits when its channel closes); the next chart starts another. */
  #retire(): void {
    if (this.#waiting.size > 0 || !this.#child) return;
    this.#child.disconnect();
    this.#child = undefined;
  }

  #exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#child === child) {
      this.#child = undefined;
      this.deps.timers.clearTimeout(this.#idle);
    }
    const lost = [...this.#waiting].filter(([, waiting]) => waiting.child === child);
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

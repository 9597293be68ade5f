/**
 * The chart process: the entry point ChartRenderer forks. It draws what its parent asks, one chart at a time,
 * and exits when its parent disconnects (idle, or stopping) or goes away. The renderer's native memory (resvg's
 * images, its font database, ECharts' objects) lives and dies here, never in the bot's own process.
 */
import { drawChart, type ChartRequest } from './charts.js';

/** A request over IPC: the chart and the number its answer carries. */
export interface ChartProcessRequest {
  readonly id: number;
  readonly chart: ChartRequest;
}

/** An answer over IPC: the PNG, or why there is none (the message of what was thrown). */
export type ChartProcessAnswer =
  { readonly id: number; readonly png: Uint8Array } | { readonly id: number; readonly error: string };

/** Said once, when the drawing libraries are loaded: the process draws at once from then on. */
export interface ChartProcessReady {
  readonly ready: true;
}

function answer(request: ChartProcessRequest): ChartProcessAnswer {
  try {
    return { id: request.id, png: drawChart(request.chart) };
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
}

process.on('message', (request: ChartProcessRequest) => process.send?.(answer(request)));
process.on('disconnect', () => process.exit(0));
const ready: ChartProcessReady = { ready: true };
process.send?.(ready);

/** Messages between a benchmark group and the load process (bench/lib/load-worker.ts). */

interface Target {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** e.g. /webhooks/<hookId> */
  path: string;
  secret: string;
}

/**
 * As many signed deliveries as `connections` keep-alive connections can push (autocannon, closed loop). With
 * several servers (`url` a list, all serving `path` from one shared store), the connections take turns among them.
 */
export interface SaturateRequest extends Omit<Target, 'url'> {
  type: 'saturate';
  url: string | string[];
  connections: number;
  durationSec: number;
  warmupSec: number;
}

/** One signed delivery every 1/rate s on a fixed schedule (open loop), answer times recorded. */
export interface PacedRequest extends Target {
  type: 'paced';
  rate: number;
  durationSec: number;
  warmupSec: number;
}

/** Ends the load process. */
export interface ExitRequest {
  type: 'exit';
}

export type LoadRequest = SaturateRequest | PacedRequest | ExitRequest;

export interface SaturateResult {
  type: 'saturate';
  /** 2xx answers during the warm-up, which is not measured. */
  warmupOk: number;
  ok: number;
  non2xx: number;
  errors: number;
  durationSec: number;
  /** 2xx answers per second. */
  throughput: number;
  /** CPU cores the load process itself kept busy during the measured run (near 1: the load may be the limit). */
  loadCores: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  statusCodes: Record<string, number>;
}

export interface PacedResult {
  type: 'paced';
  sent: number;
  ok: number;
  failed: number;
  durationSec: number;
  achievedRate: number;
  /** From the moment the request was due by the schedule to the end of the answer (counts sender lag too). */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** From the moment the request was handed to the socket. */
  p99FromSendMs: number;
  /** The most the sender fell behind its schedule. */
  maxLagMs: number;
  statusCodes: Record<string, number>;
}

export type LoadResult = SaturateResult | PacedResult;

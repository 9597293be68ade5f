import { Agent, request } from 'node:http';
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';

import { deliveryHeaders, makeDeliveryBody, makeDeliveryId, makeRunTag } from './delivery.js';
import type { LoadRequest, PacedRequest, PacedResult, SaturateRequest, SaturateResult } from './load-protocol.js';
import { percentile } from './stats.js';

/**
 * The load process. Every request carries a delivery id never sent before and a signature computed here, with
 * the hook's secret and the current time, just before the request is written: what the service itself does.
 */

function deliveryStream(): () => string {
  const tag = makeRunTag();
  let n = 0;
  return () => makeDeliveryId(tag, n++);
}

function runAutocannon(job: SaturateRequest, durationSec: number, nextId: () => string): Promise<AutocannonResult> {
  const setupRequest = (req: AutocannonRequest): AutocannonRequest => {
    const body = makeDeliveryBody(nextId());
    return { ...req, method: 'POST', path: job.path, body, headers: deliveryHeaders(job.secret, body) };
  };
  return new Promise((resolve, reject) => {
    autocannon(
      { url: job.url, connections: job.connections, duration: durationSec, timeout: 10, requests: [{ setupRequest }] },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function saturate(job: SaturateRequest): Promise<SaturateResult> {
  const nextId = deliveryStream();
  const warmup = job.warmupSec > 0 ? await runAutocannon(job, job.warmupSec, nextId) : undefined;
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  const result = await runAutocannon(job, job.durationSec, nextId);
  const cpu = process.cpuUsage(cpuBefore);
  return {
    loadCores: (cpu.user + cpu.system) / 1000 / (performance.now() - startedAt),
    type: 'saturate',
    warmupOk: warmup?.['2xx'] ?? 0,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    durationSec: result.duration,
    throughput: result['2xx'] / result.duration,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count])),
  };
}

interface Sample {
  /** HTTP status, or the error code when no answer came (e.g. ECONNRESET). */
  status: number | string;
  dueAt: number;
  sentAt: number;
  doneAt: number;
}

/** Open loop: request i is due at start + i/rate whatever happened to the earlier ones. */
async function pace(
  job: PacedRequest,
  durationSec: number,
  nextId: () => string,
): Promise<{ samples: Sample[]; elapsedMs: number }> {
  const target = new URL(job.url);
  // FIFO reuse keeps every pooled socket busy: with LIFO, sockets left idle past the server's keep-alive timeout
  // (5 s) are closed by it and the next request on them fails with ECONNRESET, a fault of the client, not the bot.
  const agent = new Agent({ keepAlive: true, maxSockets: 256, scheduling: 'fifo' });
  const total = Math.round(job.rate * durationSec);
  const intervalMs = 1000 / job.rate;
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();

  const fire = (dueAt: number) => {
    const body = makeDeliveryBody(nextId());
    const headers = { ...deliveryHeaders(job.secret, body), 'content-length': String(Buffer.byteLength(body)) };
    const sentAt = performance.now();
    const done = new Promise<void>((resolve) => {
      const req = request(
        { agent, host: target.hostname, port: target.port, path: job.path, method: 'POST', headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            samples.push({ status: res.statusCode ?? 0, dueAt, sentAt, doneAt: performance.now() });
            resolve();
          });
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        samples.push({ status: error.code ?? 'error', dueAt, sentAt, doneAt: performance.now() });
        resolve();
      });
      req.end(body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  const start = performance.now();
  await new Promise<void>((resolve) => {
    let i = 0;
    const tick = () => {
      const now = performance.now();
      while (i < total && start + i * intervalMs <= now) fire(start + intervalMs * i++);
      if (i >= total) return resolve();
      setTimeout(tick, Math.max(0, start + i * intervalMs - performance.now()));
    };
    tick();
  });
  await Promise.all(inFlight);
  const elapsedMs = performance.now() - start;
  agent.destroy();
  return { samples, elapsedMs };
}

async function paced(job: PacedRequest): Promise<PacedResult> {
  const nextId = deliveryStream();
  if (job.warmupSec > 0) await pace(job, job.warmupSec, nextId);
  const { samples, elapsedMs } = await pace(job, job.durationSec, nextId);
  const ok = samples.filter(
    (sample) => typeof sample.status === 'number' && sample.status >= 200 && sample.status < 300,
  );
  const fromDue = ok.map((sample) => sample.doneAt - sample.dueAt);
  const fromSend = ok.map((sample) => sample.doneAt - sample.sentAt);
  const statusCodes: Record<string, number> = {};
  for (const sample of samples) statusCodes[sample.status] = (statusCodes[sample.status] ?? 0) + 1;
  const none = ok.length === 0;
  return {
    type: 'paced',
    sent: samples.length,
    ok: ok.length,
    failed: samples.length - ok.length,
    durationSec: elapsedMs / 1000,
    achievedRate: samples.length / (elapsedMs / 1000),
    p50Ms: none ? Number.NaN : percentile(fromDue, 50),
    p99Ms: none ? Number.NaN : percentile(fromDue, 99),
    maxMs: none ? Number.NaN : Math.max(...fromDue),
    p99FromSendMs: none ? Number.NaN : percentile(fromSend, 99),
    maxLagMs: Math.max(0, ...samples.map((sample) => sample.sentAt - sample.dueAt)),
    statusCodes,
  };
}

// One job at a time, as the parent sends them; the process lives until it is told to exit.
process.on('message', (message: LoadRequest) => {
  if (message.type === 'exit') process.exit(0);
  const job = message.type === 'saturate' ? saturate(message) : paced(message);
  job.then(
    (result) => process.send?.(result),
    (error: unknown) => {
      console.error('load process failed:', error);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));

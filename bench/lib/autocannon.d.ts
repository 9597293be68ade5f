/** The part of autocannon 9's API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | null;
  }

  interface AutocannonOptions {
    /** Several: the connections are spread over them in turn. */
    url: string | string[];
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    overallRate?: number;
    timeout?: number;
    method?: string;
    requests?: AutocannonRequest[];
  }

  interface Histogram {
    average: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }

  interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    latency: Histogram;
    requests: Histogram & { sent: number; total: number };
    statusCodeStats: Record<string, { count: number }>;
  }

  type Callback = (error: Error | null, result: AutocannonResult) => void;

  function autocannon(options: AutocannonOptions, callback: Callback): unknown;
  export default autocannon;
  export type { AutocannonOptions, AutocannonRequest, AutocannonResult };
}

import { signDelivery } from '../../src/upstream/signature.js';

/** A request as the simulator sends it: exactly these headers and bytes. */
export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** How the endpoint answered: its status and error code, or why there was no answer; and how long it took. */
export interface DeliveryAnswer {
  status: number | undefined;
  /** `error.code` of an error body, or `status` of a 200 body such as `{"status":"duplicate"}`. */
  code: string | undefined;
  /** Set when no HTTP answer came: connection refused, timeout, TLS problem... */
  failure: string | undefined;
  ms: number;
}

/** The headers the service sends with a delivery (upstream-api.md §4.3), signed with `secret`. */
export function signedHeaders(
  event: string,
  body: string | Buffer,
  secret: string,
  timestampSeconds: number,
): Record<string, string> {
  const timestamp = String(timestampSeconds);
  return {
    'content-type': 'application/json',
    'x-service-event': event,
    'x-service-timestamp': timestamp,
    'x-service-signature': signDelivery(secret, timestamp, body),
  };
}

function readCode(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown }; status?: unknown } | null;
    const code = body?.error?.code ?? body?.status;
    return typeof code === 'string' ? code.slice(0, 80) : undefined;
  } catch {
    return undefined;
  }
}

/** Why fetch failed, in a few words: the cause's code (ECONNREFUSED, …) when there is one. */
function describeFailure(error: unknown, timedOut: boolean): string {
  if (timedOut) return 'no answer in time';
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** POSTs one delivery as the service would (no redirects followed) and reports the answer and its time. */
export async function postDelivery(request: DeliveryRequest, timeoutMs = 10_000): Promise<DeliveryAnswer> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
    const text = await response.text().catch(() => '');
    return { status: response.status, code: readCode(text), failure: undefined, ms: performance.now() - started };
  } catch (error) {
    return {
      status: undefined,
      code: undefined,
      failure: describeFailure(error, signal.aborted),
      ms: performance.now() - started,
    };
  }
}

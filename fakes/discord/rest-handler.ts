/**
 * Answers the fake's REST requests the way Discord does: faults first, then routing, auth, channel checks,
 * rate limits, body validation against Discord's schema, and finally the route's handler. Records everything.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { ApiErrors, DiscordApiFault } from './api-errors.js';
import { unresolvedAttachmentReferences } from './attachment-references.js';
import type { FaultAnswer, FaultInjector } from './faults.js';
import { FixedWindowRateLimiter, rateLimitHeaders, type RateLimit } from './rate-limiter.js';
import { normaliseDiscordPath, validateDiscordRequest } from './request-validator.js';
import { createRouter, type Route, type RouteAnswer, type UploadedFile } from './routes/router.js';

/** One REST request as the fake received it. */
export interface RecordedRequest {
  readonly method: string;
  /** As received, e.g. `/api/v10/channels/1/messages?wait=true`. */
  readonly url: string;
  /** Without `/api/v10` and the query, e.g. `/channels/1/messages`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** The parsed JSON body; the raw text when it was not JSON; undefined when empty. */
  readonly body: unknown;
  /** The token from `Authorization: Bot <token>`, if any. */
  readonly token: string | undefined;
  /** The `X-Audit-Log-Reason` header, decoded (what the server's audit log shows); undefined without one. */
  readonly auditLogReason: string | undefined;
  /** When it arrived, ms since the Unix epoch. */
  readonly time: number;
  /** The status answered; undefined while the request is held or processed, or if the fake itself failed. */
  status: number | undefined;
}

/** A request body Discord would have refused (answered 400 Invalid Form Body). */
export interface Violation {
  readonly method: string;
  readonly path: string;
  readonly problems: readonly string[];
  readonly body: unknown;
}

/** Options of {@link RestHandler}. */
export interface RestHandlerOptions {
  readonly routes: readonly Route[];
  readonly faults: FaultInjector;
  readonly messageRateLimit: RateLimit;
  /**
   * Whether successful answers carry `X-RateLimit-*` headers (default true, as Discord's do). Without them
   * discord.js cannot see a limit coming and learns it from 429s instead.
   */
  readonly advertiseRateLimits: boolean;
  readonly onChange: () => void;
}

/** Discord answers bodies up to 25 MiB for bots; nothing the bot sends comes close. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;

/** An opaque, stable bucket hash, like Discord's `X-RateLimit-Bucket`. */
const MESSAGE_BUCKET = createHash('md5').update('POST /channels/{channel.id}/messages').digest('hex');

interface ReadBody {
  readonly body: unknown;
  readonly invalidJson: boolean;
  readonly files: readonly UploadedFile[];
}

async function readBody(request: IncomingMessage): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new DiscordApiFault(413, 40005, 'Request entity too large');
    chunks.push(buffer);
  }
  const bytes = Buffer.concat(chunks);
  const contentType = request.headers['content-type'] ?? '';
  if (contentType.startsWith('multipart/form-data')) return readMultipart(bytes, contentType);
  const text = bytes.toString('utf8');
  if (text.length === 0) return { body: undefined, invalidJson: false, files: [] };
  try {
    return { body: JSON.parse(text) as unknown, invalidJson: false, files: [] };
  } catch {
    return { body: text, invalidJson: true, files: [] };
  }
}

/**
 * A file upload, as Discord reads it: the JSON part `payload_json` is the body, each `files[n]` part a file
 * (undici's own multipart parser, the one fetch uses).
 */
async function readMultipart(bytes: Buffer, contentType: string): Promise<ReadBody> {
  const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  const files: UploadedFile[] = [];
  let payload: string | undefined;
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') {
      if (field === 'payload_json') payload = value;
      continue;
    }
    files.push({
      field,
      filename: value.name,
      contentType: value.type,
      bytes: new Uint8Array(await value.arrayBuffer()),
    });
  }
  if (payload === undefined) return { body: undefined, invalidJson: false, files };
  try {
    return { body: JSON.parse(payload) as unknown, invalidJson: false, files };
  } catch {
    return { body: payload, invalidJson: true, files };
  }
}

function tokenOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  return header.replace(/^(Bot|Bearer)\s+/i, '');
}

/** Discord reads the header URL-encoded (discord.js encodes it so). */
function auditLogReasonOf(request: IncomingMessage): string | undefined {
  const header = request.headers['x-audit-log-reason'];
  if (typeof header !== 'string') return undefined;
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent || response.destroyed) return;
  if (body === undefined) {
    response.writeHead(status, headers).end();
    return;
  }
  // Attachment downloads (the CDN side) answer raw bytes.
  if (Buffer.isBuffer(body)) {
    response.writeHead(status, { 'Content-Type': 'application/octet-stream', ...headers }).end(body);
    return;
  }
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** The REST half of the fake: a Node request listener plus what it recorded. */
export class RestHandler {
  /** Every request, in arrival order. */
  readonly requests: RecordedRequest[] = [];
  /** Bodies Discord would have refused; tests assert this stays empty. */
  readonly violations: Violation[] = [];
  /** Requests no route of the fake answers (404); tests should notice these. */
  readonly unhandledRequests: RecordedRequest[] = [];
  /** Errors thrown by the fake's own handlers (bugs in the fake, answered 500). */
  readonly internalErrors: Error[] = [];
  /** Every token seen in `Authorization` headers. */
  readonly tokens = new Set<string>();
  #rateLimitHits = 0;

  readonly #route: ReturnType<typeof createRouter>;
  readonly #limiter: FixedWindowRateLimiter;

  constructor(private readonly options: RestHandlerOptions) {
    this.#route = createRouter(options.routes);
    this.#limiter = new FixedWindowRateLimiter(options.messageRateLimit);
  }

  /** How many requests were answered 429. */
  get rateLimitHits(): number {
    return this.#rateLimitHits;
  }

  /** Node `request` listener. */
  readonly listener = (request: IncomingMessage, response: ServerResponse): void => {
    this.#handle(request, response)
      .catch((error: unknown) => {
        const fault = error instanceof DiscordApiFault ? error : undefined;
        if (!fault) this.internalErrors.push(error instanceof Error ? error : new Error(String(error)));
        send(response, fault?.status ?? 500, fault?.toBody() ?? { message: '500: Internal Server Error', code: 0 });
      })
      .finally(() => this.options.onChange());
  };

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = (request.method ?? 'GET').toUpperCase();
    const url = request.url ?? '/';
    const path = normaliseDiscordPath(url);
    const query = new URL(url, 'http://fake').searchParams;
    const { body, invalidJson, files } = await readBody(request);
    const token = tokenOf(request);
    if (token !== undefined) this.tokens.add(token);

    const record: RecordedRequest = {
      method,
      url,
      path,
      query: Object.fromEntries(query),
      body,
      token,
      auditLogReason: auditLogReasonOf(request),
      time: Date.now(),
      status: undefined,
    };
    this.requests.push(record);
    this.options.onChange();
    const answer = (status: number, json: unknown, headers?: Record<string, string>): void => {
      record.status = status;
      send(response, status, json, headers);
    };
    const answerFault = (fault: FaultAnswer | DiscordApiFault, headers?: Record<string, string>): void =>
      answer(fault.status, fault instanceof DiscordApiFault ? fault.toBody() : fault.body, headers);

    const hold = this.options.faults.holdFor(path);
    if (hold) {
      await hold.released;
      if (hold.afterwards === 'reset') {
        request.socket.destroy();
        return;
      }
      // Processed even when the client gave up meanwhile (its timeout aborted the request), as Discord would:
      // the message exists, only the answer is lost. That is the case `nonce` + `enforce_nonce` are for.
    }

    const failure = this.options.faults.failureFor(path);
    if (failure) return answerFault(failure);

    const matched = this.#route(method, path);
    if (!matched) {
      this.unhandledRequests.push(record);
      return answerFault(ApiErrors.notFound());
    }
    const { route, params } = matched;
    if (route.auth && token === undefined) return answerFault(ApiErrors.unauthorized());

    const channelId = route.channelParam === undefined ? undefined : params[route.channelParam];
    if (channelId !== undefined) {
      const channelFailure = this.options.faults.channelFailureFor(channelId);
      if (channelFailure) return answerFault(channelFailure);
    }

    let headers: Record<string, string> = {};
    if (route.rateLimited && channelId !== undefined) {
      const decision = this.#limiter.take(channelId);
      const limitHeaders = rateLimitHeaders(decision, MESSAGE_BUCKET);
      if (this.options.advertiseRateLimits) headers = limitHeaders;
      if (!decision.allowed) {
        this.#rateLimitHits += 1;
        const retryAfter = decision.resetAfterMs / 1000;
        return answer(
          429,
          { message: 'You are being rate limited.', retry_after: Number(retryAfter.toFixed(3)), global: false },
          { ...limitHeaders, 'Retry-After': String(Math.ceil(retryAfter)), 'X-RateLimit-Scope': 'user' },
        );
      }
    }

    if (files.length > 0 && route.uploads !== true) {
      const problems = ['/: file uploads to this route are not supported by the fake'];
      this.violations.push({ method, path, problems, body });
      return answerFault(ApiErrors.invalidFormBody(problems), headers);
    }
    if (invalidJson) return answerFault(ApiErrors.invalidJson(), headers);

    const problems = [...validateDiscordRequest(method, path, body), ...unresolvedAttachmentReferences(body, files)];
    if (problems.length > 0) {
      this.violations.push({ method, path, problems, body });
      return answerFault(ApiErrors.invalidFormBody(problems), headers);
    }

    let result: RouteAnswer;
    try {
      result = route.handle({ params, query, body, files });
    } catch (error) {
      if (error instanceof DiscordApiFault) return answerFault(error, headers);
      throw error;
    }
    answer(result.status, result.body, headers);
  }
}

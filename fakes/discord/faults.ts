/**
 * Fault injection for the fake's REST side: failing or hanging requests, and channels the bot cannot use.
 */
import { STATUS_CODES } from 'node:http';

/** Options of {@link FaultInjector.failRequests}. Without `forMs` or `count` the fault lasts until cleared. */
export interface FailRequestsOptions {
  /** HTTP status to answer; default 500. */
  readonly status?: number;
  readonly forMs?: number;
  /** Fail only this many requests. */
  readonly count?: number;
  /** Only requests whose path (without `/api/v10`, e.g. `/channels/1/messages`) matches. */
  readonly match?: RegExp;
}

/** Options of {@link FaultInjector.hangRequests}. Without `forMs` or `count` the fault lasts until cleared. */
export interface HangRequestsOptions {
  /** How long the fault lasts; a request caught by it is held until then. */
  readonly forMs?: number;
  /** Hold only this many requests (until `forMs` ends, or until cleared). */
  readonly count?: number;
  readonly match?: RegExp;
  /**
   * What a held request gets once released: `answer` (default) processes it normally, as a slow Discord would,
   * even if the client has given up by then (the message then exists but the client never saw the answer);
   * `reset` destroys the socket without processing, as a dropped connection would.
   */
  readonly afterwards?: 'answer' | 'reset';
}

/** Options of {@link FaultInjector.failChannel}. Without `forMs` the fault lasts until cleared. */
export interface FailChannelOptions {
  /** 403 answers Missing Access (50001), 404 Unknown Channel (10003); default 403. */
  readonly status?: number;
  readonly forMs?: number;
}

/** A canned error answer. */
export interface FaultAnswer {
  readonly status: number;
  readonly body: { readonly message: string; readonly code: number };
}

/** A request held by a hang fault: wait for `released`, then do `afterwards`. */
export interface HeldRequest {
  readonly released: Promise<void>;
  readonly afterwards: 'answer' | 'reset';
}

interface Rule {
  readonly until: number;
  remaining: number;
  readonly match: RegExp | undefined;
}

function makeRule(options: { forMs?: number; count?: number; match?: RegExp }, now: number): Rule {
  return {
    until: options.forMs === undefined ? Number.POSITIVE_INFINITY : now + options.forMs,
    remaining: options.count ?? Number.POSITIVE_INFINITY,
    match: options.match,
  };
}

/** Whether a rule applies to `path` now; consumes one use of a counted rule. */
function consume(rule: Rule, path: string, now: number): boolean {
  if (now >= rule.until || rule.remaining <= 0) return false;
  if (rule.match && !rule.match.test(path)) return false;
  rule.remaining -= 1;
  return true;
}

/** Discord's JSON error answer for a status, for faults that are not about a channel. */
export function genericErrorBody(status: number): FaultAnswer['body'] {
  return { message: `${status}: ${STATUS_CODES[status] ?? 'Error'}`, code: 0 };
}

/** Holds the active faults and decides, request by request, which one applies. */
export class FaultInjector {
  #fail: (Rule & { status: number }) | undefined;
  #hang: (Rule & { afterwards: 'answer' | 'reset' }) | undefined;
  readonly #channels = new Map<string, { status: number; until: number }>();
  readonly #releases = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Every REST request answers `status` (default 500) for `forMs`, or for `count` requests, or until cleared. */
  failRequests(options: FailRequestsOptions = {}): void {
    this.#fail = { ...makeRule(options, this.now()), status: options.status ?? 500 };
  }

  /** REST requests get no answer while the fault lasts; see {@link HangRequestsOptions}. */
  hangRequests(options: HangRequestsOptions = {}): void {
    this.#hang = { ...makeRule(options, this.now()), afterwards: options.afterwards ?? 'answer' };
  }

  /** Requests about this channel answer 403 Missing Access or 404 Unknown Channel. */
  failChannel(channelId: string, options: FailChannelOptions = {}): void {
    const until = options.forMs === undefined ? Number.POSITIVE_INFINITY : this.now() + options.forMs;
    this.#channels.set(channelId, { status: options.status ?? 403, until });
  }

  /** Ends a {@link failChannel} fault on this channel now (other faults stay). */
  restoreChannel(channelId: string): void {
    this.#channels.delete(channelId);
  }

  /** Removes every fault and releases held requests. */
  clear(): void {
    this.#fail = undefined;
    this.#hang = undefined;
    this.#channels.clear();
    this.releaseAll();
  }

  /** Releases every held request now (on clear and on close). */
  releaseAll(): void {
    for (const release of [...this.#releases]) release();
  }

  /** The error to answer instead of processing the request, if a request-wide failure applies. */
  failureFor(path: string): FaultAnswer | undefined {
    if (!this.#fail || !consume(this.#fail, path, this.now())) return undefined;
    return { status: this.#fail.status, body: genericErrorBody(this.#fail.status) };
  }

  /** A hold on the request, if a hang applies; the hold ends with the fault's period or on clear. */
  holdFor(path: string): HeldRequest | undefined {
    const hang = this.#hang;
    if (!hang || !consume(hang, path, this.now())) return undefined;
    const released = new Promise<void>((resolve) => {
      const release = (): void => {
        clearTimeout(timer);
        this.#releases.delete(release);
        resolve();
      };
      const delay = hang.until - this.now();
      // An open-ended hang (count only) waits for clear() or close().
      const timer = Number.isFinite(delay) ? setTimeout(release, Math.max(0, delay)) : undefined;
      this.#releases.add(release);
    });
    return { released, afterwards: hang.afterwards };
  }

  /** The error for a request about `channelId`, if that channel is failed. */
  channelFailureFor(channelId: string): FaultAnswer | undefined {
    const fault = this.#channels.get(channelId);
    if (!fault) return undefined;
    if (this.now() >= fault.until) {
      this.#channels.delete(channelId);
      return undefined;
    }
    if (fault.status === 404) return { status: 404, body: { message: 'Unknown Channel', code: 10003 } };
    if (fault.status === 403) return { status: 403, body: { message: 'Missing Access', code: 50001 } };
    return { status: fault.status, body: genericErrorBody(fault.status) };
  }
}

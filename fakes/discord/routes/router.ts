/**
 * The fake's REST route table: a route is a method, a path template with `:params` and a handler.
 */

/** What a handler gets. */
export interface RouteRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed JSON body (a multipart body's `payload_json`), or undefined when there was none. */
  readonly body: unknown;
  /** The files of a multipart body (uploads), in the order sent; empty for a JSON body. */
  readonly files: readonly UploadedFile[];
}

/** A file the bot uploaded in a multipart body (`files[n]`). */
export interface UploadedFile {
  /** The form field: `files[0]`, `files[1]`… */
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** What a handler answers; a body of `undefined` means 204 No Content. */
export interface RouteAnswer {
  readonly status: number;
  readonly body?: unknown;
}

/** One REST route of the fake. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path after `/api/v10`, e.g. `/channels/:channelId/messages`. */
  readonly path: string;
  /** Whether Discord requires the bot token (interaction callbacks and webhooks do not). */
  readonly auth: boolean;
  /** The param naming a channel: channel faults and Unknown Channel apply to it. */
  readonly channelParam?: string;
  /** Whether the per-channel message rate limit applies. */
  readonly rateLimited?: boolean;
  /** Whether the route takes file uploads (a multipart body); others answer them as an invalid body. */
  readonly uploads?: boolean;
  readonly handle: (request: RouteRequest) => RouteAnswer;
}

/** A route with its compiled matcher. */
export interface MatchedRoute {
  readonly route: Route;
  readonly params: Record<string, string>;
}

/** Finds the route for a request; `path` is already stripped of `/api/v10` and the query, and decoded. */
export function createRouter(routes: readonly Route[]): (method: string, path: string) => MatchedRoute | undefined {
  const compiled = routes.map((route) => {
    const names: string[] = [];
    const source = route.path
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(segment.slice(1));
        return '([^/]+)';
      })
      .join('/');
    return { route, names, pattern: new RegExp(`^${source}$`) };
  });
  return (method, path) => {
    for (const { route, names, pattern } of compiled) {
      if (route.method !== method) continue;
      const match = pattern.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      names.forEach((name, index) => {
        params[name] = match[index + 1] ?? '';
      });
      return { route, params };
    }
    return undefined;
  };
}

import type pg from 'pg';

/** How long opening a connection may take: a server that does not answer fails the start or the query. */
export const CONNECT_TIMEOUT_MS = 10_000;
/**
 * How long the server lets one statement run. The bot's statements take milliseconds (work is done in bounded
 * slices); one that runs this long is stuck behind a lock or a sick server, and is better failed and retried.
 */
export const STATEMENT_TIMEOUT_MS = 15_000;
/**
 * How long the client waits for a query's answer: past the server's own limit, for the case it never answers
 * (a network that drops packets instead of refusing them).
 */
export const QUERY_TIMEOUT_MS = 20_000;
/**
 * TCP keepalive on every connection, first probe after this much silence: a server that vanished without closing
 * the connection (a host gone, a network cut) is noticed by the kernel, also on a connection that only listens.
 */
export const KEEPALIVE_DELAY_MS = 5_000;

/**
 * `config` with the connect, statement and query timeouts and keepalive: for every connection that runs the bot's own
 * statements (the pool, the LISTEN connection, the lease session). Not for migrations, which wait for each other
 * on a lock and may rewrite large tables.
 */
export function withTimeouts<Config extends pg.ClientConfig>(config: Config): Config {
  return {
    ...config,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  };
}

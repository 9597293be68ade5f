import { readFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';

import type { FeedBotReply, FeedBotRequest } from './feed-bot-protocol.js';
import { startFeedBot, waitForEmptyOutbox, type FeedBot } from './feed-bot.js';

/**
 * The bot process of feed.rss_mb: the real bot alone (intake, SQLite outbox, feed, discord.js), so its memory
 * is measured without the fake Discord's stored messages or the load generator. Forked by
 * lib/feed-bot-process.ts with `--import tsx --expose-gc`; driven over IPC (lib/feed-bot-protocol.ts).
 */

let feed: FeedBot | undefined;

function reply(message: FeedBotReply, then: () => void = () => {}): void {
  if (process.connected) process.send?.(message, then);
}

/** A `VmRss`-style line of /proc/self/status in bytes; undefined off Linux. */
function procStatus(field: string): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function measure(bot: FeedBot): Promise<FeedBotReply> {
  const collect = globalThis.gc;
  if (!collect) throw new Error('start the bot process with --expose-gc');
  await waitForEmptyOutbox(bot.bot, 120_000);
  // Twice, a turn apart: what the first collection finalises (sockets, timers) the second one frees.
  collect();
  await nextTurn();
  collect();
  const usage = process.memoryUsage();
  const warnings = bot.warnings();
  return {
    type: 'memory',
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    rssAnon: procStatus('RssAnon'),
    rssFile: procStatus('RssFile'),
    outbox: await bot.bot.store.deliveries.countOpen(),
    warnings: warnings.count,
    firstWarning: warnings.first[0],
  };
}

async function handle(request: FeedBotRequest): Promise<void> {
  switch (request.type) {
    case 'start':
      feed = await startFeedBot(request.options);
      reply({ type: 'ready', webhookUrl: feed.webhookUrl });
      return;
    case 'measure':
      if (!feed) throw new Error('measure before start');
      reply(await measure(feed));
      return;
    case 'stop':
      await feed?.stop();
      feed = undefined;
      reply({ type: 'stopped' }, () => process.exit(0));
      return;
  }
}

process.on('message', (request: FeedBotRequest) => {
  handle(request).catch((error: unknown) => {
    reply({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  });
});
// The benchmark went away (failed, or was killed): stop the bot, which closes the store, and leave.
process.on('disconnect', () => {
  void (feed?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
});

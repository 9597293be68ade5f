import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { FeedBotMemory, FeedBotReply, FeedBotRequest } from './feed-bot-protocol.js';
import type { FeedBotOptions } from './feed-bot.js';
import { serverNodeFlags } from './start-flags.js';

/**
 * The bot in a process of its own (lib/feed-bot-child.ts) with `--expose-gc`: compiled to JavaScript (see
 * lib/feed-compile.ts), or run through tsx as the other benchmarks' children are. Unlike lib/children.ts it
 * never throws from a send to a dead process, gives every request a deadline, and `stop()` always ends the
 * process (SIGKILL as the last resort). BENCH_SERVER_FLAGS (e.g. "--heap-prof") are passed on, as to the other
 * server processes.
 */
export interface FeedBotProcess {
  webhookUrl: string;
  /** The hooks of FeedBotOptions.moreGuilds, in their order. */
  moreWebhookUrls: string[];
  /** Waits for the outbox to empty, collects garbage, and reports the process's memory. */
  measure(): Promise<FeedBotMemory>;
  /** Stops the bot and ends the process; safe to call more than once, and after a failure. */
  stop(): Promise<void>;
}

/** The reply of type `T`. */
export type ReplyOf<T extends FeedBotReply['type']> = Extract<FeedBotReply, { type: T }>;

/** A forked bot process before (or without) a bot: any request of the protocol, and a stop that always ends it. */
export interface FeedBotChild {
  /** Sends `request` and resolves with its reply, which must be of type `expected`, within `timeoutMs`. */
  ask<T extends FeedBotReply['type']>(request: FeedBotRequest, expected: T, timeoutMs: number): Promise<ReplyOf<T>>;
  stop(): Promise<void>;
}

/** What the process runs: the compiled child module (a path from compileFeedBotChild), or the source via tsx. */
export type FeedBotRuntime = { compiled: string } | 'tsx';

function command(runtime: FeedBotRuntime): { module: string; execArgv: string[] } {
  if (runtime === 'tsx') {
    return {
      module: fileURLToPath(new URL('./feed-bot-child.ts', import.meta.url)),
      execArgv: ['--import', import.meta.resolve('tsx'), '--expose-gc', ...serverNodeFlags()],
    };
  }
  return { module: runtime.compiled, execArgv: ['--expose-gc', ...serverNodeFlags()] };
}

/** Forks the bot process; nothing runs in it until the first request. */
export function forkFeedBot(runtime: FeedBotRuntime, env: NodeJS.ProcessEnv = process.env): FeedBotChild {
  const { module, execArgv } = command(runtime);
  const child = fork(module, [], { execArgv, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting: Array<{ resolve: (reply: FeedBotReply) => void; reject: (error: Error) => void }> = [];
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitCode = code;
      const error = new Error(`the bot process exited (${signal ?? `code ${String(code)}`}) while a reply was awaited`);
      for (const waiter of waiting.splice(0)) waiter.reject(error);
      resolve();
    });
  });
  child.on('message', (reply: FeedBotReply) => waiting.shift()?.resolve(reply));
  // A send to a process that just died emits 'error'; the 'exit' above already fails whoever waits.
  child.on('error', () => {});

  const send = (request: FeedBotRequest, timeoutMs: number): Promise<FeedBotReply> =>
    new Promise<FeedBotReply>((resolve, reject) => {
      if (exitCode !== undefined || !child.connected) {
        reject(new Error(`the bot process is gone; cannot send ${request.type}`));
        return;
      }
      const timer = setTimeout(() => {
        const index = waiting.indexOf(waiter);
        if (index >= 0) waiting.splice(index, 1);
        reject(new Error(`the bot process did not answer ${request.type} within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = {
        resolve: (reply: FeedBotReply) => {
          clearTimeout(timer);
          if (reply.type === 'failed') reject(new Error(`the bot process failed: ${reply.message}`));
          else resolve(reply);
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      waiting.push(waiter);
      child.send(request);
    });

  const ask = async <T extends FeedBotReply['type']>(
    request: FeedBotRequest,
    expected: T,
    timeoutMs: number,
  ): Promise<ReplyOf<T>> => {
    const reply = await send(request, timeoutMs);
    if (reply.type !== expected) throw new Error(`the bot process answered ${reply.type} to ${request.type}`);
    return reply as ReplyOf<T>;
  };

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (exitCode === undefined) {
        try {
          await send({ type: 'stop' }, 15_000);
        } catch {
          // Stuck or already dying: the kill below ends it.
        }
      }
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(kill);
    })();
    return stopping;
  };
  return { ask, stop };
}

/** Forks the bot process and starts the bot in it (hook and routes saved, Discord ready). */
export async function startFeedBotProcess(
  options: FeedBotOptions,
  runtime: FeedBotRuntime,
  env: NodeJS.ProcessEnv = process.env,
): Promise<FeedBotProcess> {
  const child = forkFeedBot(runtime, env);
  try {
    const readyTimeoutMs = (options.readyTimeoutMs ?? 15_000) + 15_000;
    const { webhookUrl, moreWebhookUrls } = await child.ask({ type: 'start', options }, 'ready', readyTimeoutMs);
    return {
      webhookUrl,
      moreWebhookUrls,
      measure: () => child.ask({ type: 'measure' }, 'memory', 150_000),
      stop: () => child.stop(),
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

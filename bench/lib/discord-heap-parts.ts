import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Client } from 'discord.js';

/**
 * Where a gateway process's heap per guild goes, by difference: discord.js's caches are emptied one part at a
 * time in the running process (lib/feed-bot-child.ts, once it is measured: this breaks the client), the heap read
 * after a full collection each time. A part's bytes are what emptying it freed, so what it alone holds: the
 * channels' part their objects and their own managers (messages, threads, overwrites) once their overwrites are
 * gone; the guilds' part the guild objects, their managers and their maps, once channels, roles and members are.
 */
export interface DiscordHeapParts {
  type: 'discord-heap';
  /** Guilds in the cache before anything was dropped. */
  guilds: number;
  /** Heap used (after GC) before anything was dropped, bytes. */
  before: number;
  /** Each part in the order dropped, with the bytes dropping it freed. */
  parts: Array<{ part: string; bytes: number }>;
  /** Heap used once every part is gone, bytes: the process's own, to compare with a process that had no guilds. */
  after: number;
}

async function heapUsed(): Promise<number> {
  const collect = globalThis.gc;
  if (!collect) throw new Error('start the bot process with --expose-gc');
  collect();
  await nextTurn();
  collect();
  return process.memoryUsage().heapUsed;
}

/** The parts, in the order they are dropped (each after those before it). */
const PARTS: ReadonlyArray<readonly [string, (client: Client) => void]> = [
  [
    'permission overwrites',
    (client) => {
      for (const channel of client.channels.cache.values()) {
        if ('permissionOverwrites' in channel) channel.permissionOverwrites.cache.clear();
      }
    },
  ],
  [
    'channels, with their own managers',
    (client) => {
      for (const guild of client.guilds.cache.values()) guild.channels.cache.clear();
      client.channels.cache.clear();
    },
  ],
  [
    'roles',
    (client) => {
      for (const guild of client.guilds.cache.values()) guild.roles.cache.clear();
    },
  ],
  [
    'members (the bot itself) and voice states',
    (client) => {
      for (const guild of client.guilds.cache.values()) {
        guild.members.cache.clear();
        guild.voiceStates.cache.clear();
      }
    },
  ],
  ['guild objects, their managers and maps', (client) => client.guilds.cache.clear()],
];

/** Empties discord.js's caches part by part; see {@link DiscordHeapParts}. */
export async function measureDiscordHeapParts(client: Client): Promise<DiscordHeapParts> {
  const guilds = client.guilds.cache.size;
  const before = await heapUsed();
  const parts: DiscordHeapParts['parts'] = [];
  let last = before;
  for (const [part, drop] of PARTS) {
    drop(client);
    const now = await heapUsed();
    parts.push({ part, bytes: last - now });
    last = now;
  }
  return { type: 'discord-heap', guilds, before, parts, after: last };
}

import { readFileSync, statSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import type { Client } from 'discord.js';

import { SQLITE_PRAGMAS } from '../../src/store/sqlite/open-sqlite-store.js';

/**
 * Where the bot process's resident memory goes, read inside that process (lib/feed-bot-child.ts): the JS heap
 * is a fraction of the RSS, the rest is native and nothing in Node reports it. Linux only (/proc/self/smaps);
 * elsewhere the native figures are undefined.
 */
export interface MemoryBreakdown {
  /** V8: what the heap's spaces hold, and what they keep resident (physical), bytes; the young generation apart. */
  heapUsed: number;
  heapResident: number;
  newSpaceResident: number;
  /** Each space of 0.5 MB resident or more: where the heap's resident pages are, and how full they are. */
  spaces: Array<{ name: string; used: number; resident: number }>;
  /** Resident pages of glibc malloc: the main arena ([heap], brk) and the threads' arenas (64 MiB mappings). */
  mallocMain: number | undefined;
  mallocThreads: number | undefined;
  threadArenas: number | undefined;
  /** Anonymous pages that are neither of the above (V8's heap and code, thread stacks, large mmap'd blocks). */
  otherAnon: number | undefined;
  /** SQLite's page cache: its cap (cache_size), and the most it can hold now (the file's pages, WAL included). */
  sqliteCacheCap: number;
  sqliteCacheBound: number | undefined;
  /** What discord.js keeps, in entries. */
  discord: DiscordCacheCounts | undefined;
}

export interface DiscordCacheCounts {
  guilds: number;
  channels: number;
  roles: number;
  members: number;
  messages: number;
  users: number;
  emojis: number;
  stickers: number;
  voiceStates: number;
  presences: number;
}

/** glibc maps each thread arena as 64 MiB (HEAP_MAX_SIZE on 64-bit) aligned to 64 MiB, most of it PROT_NONE. */
const ARENA_SPAN = 64 * 1024 * 1024;

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  inode: string;
  path: string;
  rss: number;
}

function readMappings(): Mapping[] | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  const mappings: Mapping[] = [];
  let current: Mapping | undefined;
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (header) {
      current = {
        start: BigInt(`0x${header[1] ?? '0'}`),
        end: BigInt(`0x${header[2] ?? '0'}`),
        perms: header[3] ?? '',
        inode: header[4] ?? '0',
        path: header[5] ?? '',
        rss: 0,
      };
      mappings.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (rss && current) current.rss = Number(rss[1]) * 1024;
  }
  return mappings;
}

/** Resident bytes of glibc's main arena, of the thread arenas, of the other anonymous mappings, and the arena count. */
function nativeSplit(): Pick<MemoryBreakdown, 'mallocMain' | 'mallocThreads' | 'threadArenas' | 'otherAnon'> {
  const mappings = readMappings();
  if (!mappings)
    return { mallocMain: undefined, mallocThreads: undefined, threadArenas: undefined, otherAnon: undefined };
  let mallocMain = 0;
  let mallocThreads = 0;
  let threadArenas = 0;
  let otherAnon = 0;
  const span = BigInt(ARENA_SPAN);
  for (let i = 0; i < mappings.length; i += 1) {
    const mapping = mappings[i] as Mapping;
    if (mapping.inode !== '0') continue;
    if (mapping.path === '[heap]') {
      mallocMain += mapping.rss;
      continue;
    }
    // A thread arena: a read-write start on a 64 MiB boundary, then (unless fully grown) its PROT_NONE rest,
    // the two together exactly 64 MiB.
    const next = mappings[i + 1];
    const anonymous = mapping.path === '';
    if (anonymous && mapping.perms.startsWith('rw') && mapping.start % span === 0n) {
      const grown = mapping.end - mapping.start === span;
      const withRest =
        next !== undefined &&
        next.path === '' &&
        next.perms.startsWith('---') &&
        next.start === mapping.end &&
        next.end - mapping.start === span;
      if (grown || withRest) {
        mallocThreads += mapping.rss;
        threadArenas += 1;
        if (withRest) i += 1;
        continue;
      }
    }
    if (anonymous || mapping.path.startsWith('[stack')) otherAnon += mapping.rss;
  }
  return { mallocMain, mallocThreads, threadArenas, otherAnon };
}

/** cache_size as SQLITE_PRAGMAS sets it, in bytes (negative: KiB; positive: pages of 4 KiB, SQLite's default). */
function sqliteCacheCap(): number {
  const pragma = SQLITE_PRAGMAS.findLast((line) => /^cache_size\s*=/.test(line));
  const value = Number(pragma?.split('=')[1]?.trim() ?? '-2000');
  return value < 0 ? -value * 1024 : value * 4096;
}

function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function discordCounts(client: Client | undefined): DiscordCacheCounts | undefined {
  if (!client) return undefined;
  const counts: DiscordCacheCounts = {
    guilds: client.guilds.cache.size,
    channels: client.channels.cache.size,
    roles: 0,
    members: 0,
    messages: 0,
    users: client.users.cache.size,
    emojis: 0,
    stickers: 0,
    voiceStates: 0,
    presences: 0,
  };
  for (const guild of client.guilds.cache.values()) {
    counts.roles += guild.roles.cache.size;
    counts.members += guild.members.cache.size;
    counts.emojis += guild.emojis.cache.size;
    counts.stickers += guild.stickers.cache.size;
    counts.voiceStates += guild.voiceStates.cache.size;
    counts.presences += guild.presences.cache.size;
  }
  for (const channel of client.channels.cache.values()) {
    if ('messages' in channel) counts.messages += channel.messages.cache.size;
  }
  return counts;
}

/** The breakdown now; `storeFile` is the SQLite file (its `-wal` beside it), `client` the bot's discord.js client. */
export function readMemoryBreakdown(storeFile: string, client: Client | undefined): MemoryBreakdown {
  let heapUsed = 0;
  let heapResident = 0;
  let newSpaceResident = 0;
  const spaces: MemoryBreakdown['spaces'] = [];
  for (const space of getHeapSpaceStatistics()) {
    heapUsed += space.space_used_size;
    heapResident += space.physical_space_size;
    if (space.space_name === 'new_space') newSpaceResident = space.physical_space_size;
    if (space.physical_space_size >= 512 * 1024) {
      spaces.push({ name: space.space_name, used: space.space_used_size, resident: space.physical_space_size });
    }
  }
  const cap = sqliteCacheCap();
  const onDisk = fileBytes(storeFile) + fileBytes(`${storeFile}-wal`);
  return {
    heapUsed,
    heapResident,
    newSpaceResident,
    spaces,
    ...nativeSplit(),
    sqliteCacheCap: cap,
    sqliteCacheBound: onDisk > 0 ? Math.min(cap, onDisk) : undefined,
    discord: discordCounts(client),
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startFakeDiscord, type FakeDiscord, type RateLimit } from '../../fakes/discord/index.js';
import type { EventName } from '../../src/upstream/schemas.js';

/**
 * What every part of the backlog group runs against: a fresh fake Discord with one guild of 20 feed channels
 * (and one more, to warm the fake up), routes that send `backlog.<i>` to channel i, and a temp dir for the
 * store file.
 */
export const BACKLOG_CHANNELS = 20;
export const BACKLOG_EVENTS: readonly string[] = Array.from({ length: BACKLOG_CHANNELS }, (_, i) => `backlog.${i}`);
/** The signed deliveries sent over HTTP: real events, routed into four of the same 20 channels. */
export const SIGNED_EVENTS: readonly EventName[] = ['case.created', 'modcall', 'shift.started', 'session.started'];
/** Generous: Discord's global 50 requests/s (which discord.js keeps to by itself) is what limits a drain. */
export const GENEROUS_LIMIT: RateLimit = { limit: 1_000, windowMs: 1_000 };
/** Message creates, the only requests an outage fails (the gateway and logins keep working). */
export const MESSAGE_CREATE = /^\/channels\/\d+\/messages$/;

export interface BacklogScene {
  fake: FakeDiscord;
  guildId: string;
  channelIds: string[];
  /** Not routed: a message there compiles the fake's schema before anything is timed. */
  warmUpChannelId: string;
  routes: Record<string, string>;
  dir: string;
}

export async function withBacklogScene<T>(work: (scene: BacklogScene) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-backlog-bench-'));
  const fake = await startFakeDiscord({ messageRateLimit: GENEROUS_LIMIT });
  try {
    const names = BACKLOG_EVENTS.map((_, i) => `backlog-${i}`);
    const guild = fake.addGuild({
      name: 'Backlog Bench',
      channels: [...names.map((name) => ({ name })), { name: 'warm-up' }],
    });
    const channelIds = names.map((name) => {
      const id = guild.channels[name];
      if (!id) throw new Error(`the fake made no channel ${name}`);
      return id;
    });
    const warmUpChannelId = guild.channels['warm-up'];
    if (!warmUpChannelId) throw new Error('the fake made no warm-up channel');
    const routes: Record<string, string> = {};
    BACKLOG_EVENTS.forEach((event, i) => (routes[event] = channelIds[i] as string));
    SIGNED_EVENTS.forEach(
      (event, i) => (routes[event] = channelIds[(i * BACKLOG_CHANNELS) / SIGNED_EVENTS.length] as string),
    );
    return await work({ fake, guildId: guild.id, channelIds, warmUpChannelId, routes, dir });
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Posts one message to the warm-up channel with the bot's token: the fake compiles Discord's schema (~0.5 s) then. */
export async function warmUpFake(scene: BacklogScene): Promise<void> {
  const response = await fetch(`${scene.fake.apiUrl}/v10/channels/${scene.warmUpChannelId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bot ${scene.fake.botToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'warm-up' }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the fake answered ${response.status} to the warm-up message`);
}

/** Message creates the fake recorded since `since` (ms since the Unix epoch), by answer: what lanes tried. */
export function messageCreatesSince(fake: FakeDiscord, since: number): { ok: number; failed: number } {
  let ok = 0;
  let failed = 0;
  for (const request of fake.requests) {
    if (request.time < since || request.method !== 'POST' || !MESSAGE_CREATE.test(request.path)) continue;
    if (request.status === 200) ok += 1;
    else failed += 1;
  }
  return { ok, failed };
}

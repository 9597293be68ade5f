import { randomBytes } from 'node:crypto';

import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { openStore } from '../../src/store/open-store.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import type { Fleet } from './fleet.js';

/** The three events each guild sends, each routed to a channel of its own. */
const EVENTS = ['modcall', 'case.created', 'shift.started'] as const;

export interface ChaosGuild {
  index: number;
  guildId: string;
  hookId: string;
  secret: string;
  channels: string[];
}

export interface ChaosWorld {
  discord: FakeDiscord;
  guilds: ChaosGuild[];
}

/** The fake Discord with `count` guilds of three channels, and the store set up as admins would have. */
export async function buildChaosWorld(storeUrl: string, count: number): Promise<ChaosWorld> {
  // Discord's own per-channel limit is 5 per 5 s; 600 channels at once make that the fake's busiest part.
  const discord = await startFakeDiscord({ messageRateLimit: { limit: 5, windowMs: 1_000 } });
  const guilds: ChaosGuild[] = [];
  const store = await openStore(storeUrl);
  try {
    for (let index = 0; index < count; index += 1) {
      const guild = discord.addGuild({
        name: `Chaos ${index}`,
        channels: EVENTS.map((_, c) => ({ name: `feed-${c}` })),
      });
      const channels = EVENTS.map((_, c) => guild.channels[`feed-${c}`] ?? '');
      const chaos: ChaosGuild = {
        index,
        guildId: guild.id,
        hookId: randomBytes(16).toString('hex'),
        secret: `whsec_chaos_${index}_${randomBytes(8).toString('hex')}`,
        channels,
      };
      await store.hooks.save({
        hookId: chaos.hookId,
        guildId: chaos.guildId,
        webhookId: `wh_${index}`,
        secret: chaos.secret,
        events: [...EVENTS],
        createdAt: index,
      });
      await store.guilds.update(chaos.guildId, (settings) => ({
        ...settings,
        routes: Object.fromEntries(EVENTS.map((event, c) => [event, channels[c] ?? ''])),
      }));
      guilds.push(chaos);
    }
  } finally {
    await store.close();
  }
  return { discord, guilds };
}

/** The body of the j-th delivery of a guild: its event takes turns, its id says which it is. */
function bodyOf(guild: ChaosGuild, j: number): { id: string; body: string } {
  const event = EVENTS[j % EVENTS.length] ?? 'modcall';
  const id = `g${guild.index}-d${String(j).padStart(4, '0')}`;
  return { id, body: JSON.stringify({ ...SAMPLE_DELIVERIES[event], id }) };
}

/** Posts one signed delivery to an intake; the HTTP status, or undefined when the process did not answer. */
async function post(port: number, guild: ChaosGuild, body: string): Promise<number | undefined> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  try {
    const response = await fetch(`http://127.0.0.1:${port}/webhooks/${guild.hookId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-timestamp': timestamp,
        'x-service-signature': signDelivery(guild.secret, timestamp, body),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** What the senders saw: per guild, delivery ids in the order their first 2xx came back. */
export interface SendRecord {
  answered: Map<number, string[]>;
  resent: number;
  doubled: number;
}

/**
 * Each guild sends its deliveries one after another (the next once the last got a 2xx), each to a random intake
 * process, retrying elsewhere when one does not answer (as the service retries); 10 % are sent again later to
 * another process, 2 % to two processes at once.
 */
export async function sendAll(fleet: Fleet, world: ChaosWorld, perGuild: number, gapMs: number): Promise<SendRecord> {
  const record: SendRecord = { answered: new Map(), resent: 0, doubled: 0 };
  const later: Array<{ guild: ChaosGuild; body: string }> = [];
  const sendUntilAnswered = async (guild: ChaosGuild, body: string): Promise<void> => {
    for (let tries = 0; ; tries += 1) {
      const intakes = fleet.intakes();
      if (intakes.length === 0 || tries > 200) throw new Error('no intake answered');
      const status = await post(pick(intakes).port, guild, body);
      if (status === 204 || status === 200) return;
      await sleep(100);
    }
  };
  await Promise.all(
    world.guilds.map(async (guild) => {
      const answered: string[] = [];
      record.answered.set(guild.index, answered);
      await sleep(Math.random() * gapMs);
      for (let j = 0; j < perGuild; j += 1) {
        const { id, body } = bodyOf(guild, j);
        if (Math.random() < 0.02) {
          record.doubled += 1;
          await Promise.all([sendUntilAnswered(guild, body), sendUntilAnswered(guild, body)]);
        } else {
          await sendUntilAnswered(guild, body);
        }
        answered.push(id);
        if (Math.random() < 0.1) later.push({ guild, body });
        await sleep(gapMs * (0.5 + Math.random()));
      }
    }),
  );
  for (const { guild, body } of later) {
    record.resent += 1;
    await sendUntilAnswered(guild, body);
  }
  return record;
}

/** Every answered delivery posted once, in its guild's order per channel; nothing posted that was not sent. */
export function checkPosted(
  world: ChaosWorld,
  record: SendRecord,
): { lost: number; doubled: number; outOfOrder: number } {
  let lost = 0;
  let doubled = 0;
  let outOfOrder = 0;
  for (const guild of world.guilds) {
    const expected = new Set(record.answered.get(guild.index) ?? []);
    const counts = new Map<string, number>();
    for (const channelId of guild.channels) {
      let last = -1;
      for (const message of world.discord.messages(channelId)) {
        for (const embed of message.embeds) {
          const id = /Delivery (\S+)$/.exec(embed.footer?.text ?? '')?.[1] ?? '?';
          counts.set(id, (counts.get(id) ?? 0) + 1);
          const j = Number(/-d(\d+)$/.exec(id)?.[1] ?? -1);
          if (j <= last) outOfOrder += 1;
          last = j;
        }
      }
    }
    for (const id of expected) {
      const count = counts.get(id) ?? 0;
      if (count === 0) lost += 1;
      if (count > 1) doubled += count - 1;
    }
    for (const id of counts.keys()) if (!expected.has(id)) doubled += 1;
  }
  return { lost, doubled, outOfOrder };
}

/** Resolves once a live process's /healthz says nothing is left open, or rejects after `timeoutMs`. */
export async function waitForEmptyStore(fleet: Fleet, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const live = [...fleet.processes.values()].filter((bot) => bot.child.exitCode === null && !bot.child.signalCode);
    const answer = await fetch(`http://127.0.0.1:${pick(live).port}/healthz`)
      .then((response) => response.json() as Promise<{ outbox: number }>)
      .catch(() => undefined);
    if (answer?.outbox === 0) return;
    if (Date.now() > deadline) throw new Error(`the store still holds ${String(answer?.outbox)} open entries`);
    await sleep(500);
  }
}

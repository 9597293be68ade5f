import { randomBytes } from 'node:crypto';

import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { Fleet } from './fleet.js';

/** The scenario's size: 10,000 deliveries over 200 guilds. */
export const CHAOS_GUILDS = 200;
export const CHAOS_PER_GUILD = 50;
/** Between a guild's deliveries: the 10,000 arrive over about 40 s, so every fault meets traffic. */
export const CHAOS_GAP_MS = 800;

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
  const store = await openStore(storeUrl, STORE_MODULES);
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

/** The j-th delivery of a guild: its event (and so its channel) takes turns, its id says which it is. */
function deliveryOf(guild: ChaosGuild, j: number): { id: string; body: string; channelId: string } {
  const event = EVENTS[j % EVENTS.length] ?? 'modcall';
  const id = `g${guild.index}-d${String(j).padStart(4, '0')}`;
  return {
    id,
    body: JSON.stringify(
      event === 'modcall'
        ? // A caller of its own: one caller's calls within 10 minutes are one card, edited, and this test counts posts.
          {
            ...SAMPLE_DELIVERIES.modcall,
            id,
            data: { ...SAMPLE_DELIVERIES.modcall.data, caller: { robloxId: id, name: id } },
          }
        : { ...SAMPLE_DELIVERIES[event], id },
    ),
    channelId: guild.channels[j % EVENTS.length] ?? '',
  };
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
  /** Per delivery id: when its first 2xx came back (Date.now()), and the channel it is routed to. */
  answeredAt: Map<string, { at: number; channelId: string }>;
  resent: number;
  doubled: number;
}

/**
 * Each guild sends its deliveries one after another (the next once the last got a 2xx), each to a random intake
 * process, retrying elsewhere when one does not answer (as the service retries); 10 % are sent again later to
 * another process, 2 % to two processes at once. `until` ends every guild's sending early once it returns true
 * (steady traffic for as long as a measurement needs it).
 */
export async function sendAll(
  fleet: Fleet,
  world: ChaosWorld,
  perGuild: number,
  gapMs: number,
  until: () => boolean = () => false,
): Promise<SendRecord> {
  const record: SendRecord = { answered: new Map(), answeredAt: new Map(), resent: 0, doubled: 0 };
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
      for (let j = 0; j < perGuild && !until(); j += 1) {
        const { id, body, channelId } = deliveryOf(guild, j);
        let at: number;
        if (Math.random() < 0.02) {
          record.doubled += 1;
          const copies = [sendUntilAnswered(guild, body), sendUntilAnswered(guild, body)];
          const first = Promise.race(copies).then(() => Date.now());
          await Promise.all(copies);
          at = await first;
        } else {
          await sendUntilAnswered(guild, body);
          at = Date.now();
        }
        record.answeredAt.set(id, { at, channelId });
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

/**
 * Bot processes (none started yet) on `storeUrl`, posting to the world's fake Discord; `node`: how each starts
 * (FleetOptions.node).
 */
export function chaosFleet(world: ChaosWorld, storeUrl: string, node?: readonly string[]): Fleet {
  return new Fleet({
    ...(node ? { node } : {}),
    env: {
      DISCORD_TOKEN: world.discord.botToken,
      DISCORD_API_URL: world.discord.apiUrl,
      PUBLIC_URL: 'https://bot.example.test',
      SERVICE_URL: 'https://service.example.test',
      STORE_URL: storeUrl,
      LOG_LEVEL: 'info',
    },
  });
}

/** Discord failing in the two ways the issue names, while traffic flows. */
export async function discordFaults(world: ChaosWorld): Promise<void> {
  await sleep(3_000);
  world.discord.failRequests({ status: 500, forMs: 10_000, match: /\/messages$/ });
  await sleep(12_000);
  world.discord.hangRequests({ forMs: 30_000, match: /\/messages$/ });
}

/**
 * The PostgreSQL chaos: 3 intake and 2 feed processes, the 10,000 deliveries, an intake process killed for good,
 * a feed process SIGKILLed and restarted every 3 s (ten times, in turn) and Discord's faults; resolves with what
 * the senders saw once the store holds nothing open.
 */
export async function runPostgresChaos(fleet: Fleet, world: ChaosWorld): Promise<SendRecord> {
  await Promise.all([
    fleet.start('intake-1', 'intake'),
    fleet.start('intake-2', 'intake'),
    fleet.start('intake-3', 'intake'),
    fleet.start('feed-1', 'feed'),
    fleet.start('feed-2', 'feed'),
  ]);
  const sent = sendAll(fleet, world, CHAOS_PER_GUILD, CHAOS_GAP_MS);
  const chaos = (async () => {
    await sleep(5_000);
    await fleet.kill('intake-2');
    for (let round = 0; round < 10; round += 1) {
      await sleep(3_000);
      const victim = round % 2 === 0 ? 'feed-1' : 'feed-2';
      await fleet.kill(victim);
      await fleet.start(victim, 'feed');
    }
  })();
  const [record] = await Promise.all([sent, chaos, discordFaults(world)]);
  await waitForEmptyStore(fleet, 120_000);
  return record;
}

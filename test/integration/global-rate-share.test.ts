import { Client, RESTEvents, type RateLimitData } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { setGlobalRateShare } from '../../src/discord/global-rate-share.js';

let discord: FakeDiscord;
let client: Client;
let channelIds: string[];
/** The sends @discordjs/rest held for the bot's global limit. */
let heldForGlobal: RateLimitData[];

beforeEach(async () => {
  discord = await startFakeDiscord();
  const guild = discord.addGuild({ channels: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] });
  channelIds = Object.values(guild.channels);
  // Only the REST side; a share of 2 a second, as a process holding part of the partitions would have.
  client = new Client({ intents: [], rest: { api: discord.apiUrl, retries: 0, globalRequestsPerSecond: 2 } });
  client.rest.setToken(discord.botToken);
  heldForGlobal = [];
  client.rest.on(RESTEvents.RateLimited, (info) => {
    if (info.global) heldForGlobal.push(info);
  });
});

afterEach(async () => {
  await client.destroy();
  await discord.close();
});

/** One message in each channel (a route of its own each: only the global limit can hold them). */
const sendTo = (channels: string[]) =>
  Promise.all(
    channels.map((channelId) => client.rest.post(`/channels/${channelId}/messages`, { body: { content: 'x' } })),
  );

describe("a process's share of the global rate", () => {
  it('raised while a second runs, lets the sends the larger share allows go in that second', async () => {
    await sendTo(channelIds.slice(0, 2));
    setGlobalRateShare(client.rest, 4);
    await sendTo(channelIds.slice(2, 4));
    expect(heldForGlobal).toEqual([]);
    expect(channelIds.map((channelId) => discord.messages(channelId).length)).toEqual([1, 1, 1, 1]);
  });

  it('left as it is, holds the sends past it until the next second (what the raise avoids)', async () => {
    await sendTo(channelIds.slice(0, 2));
    await sendTo(channelIds.slice(2, 3));
    expect(heldForGlobal).toHaveLength(1);
  });

  it('lowered while a second runs, counts from the next second on (the pacer has slowed down already)', async () => {
    await sendTo(channelIds.slice(0, 1));
    setGlobalRateShare(client.rest, 1);
    await sendTo(channelIds.slice(1, 2));
    expect(heldForGlobal).toEqual([]);
    expect(client.rest.options.globalRequestsPerSecond).toBe(1);
    // The running second is spent (2 sent of the 2 it began with): the next send waits for the next second.
    await sendTo(channelIds.slice(2, 3));
    expect(heldForGlobal).toHaveLength(1);
  });
});

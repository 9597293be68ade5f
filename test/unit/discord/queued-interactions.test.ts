import { EventEmitter } from 'node:events';
import {
  GatewayDispatchEvents,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  Routes,
  Status,
  type Client,
  type Interaction,
} from 'discord.js';
import { describe, expect, it } from 'vitest';

import { STILL_STARTING, watchQueuedInteractions } from '../../../src/discord/queued-interactions.js';
import { captureLogs } from '../../helpers/capture-logs.js';
import { ManualTime } from '../../helpers/manual-time.js';

/**
 * The watcher against the two parts of discord.js it uses: the gateway's raw events with the manager's status
 * (`client.ws`), and the REST client its answer goes through. The e2e test (test/e2e/sharding.test.ts) runs
 * the same against a real discord.js on three shards; here the timing is in the test's hands.
 */
function world() {
  const ws = Object.assign(new EventEmitter(), { status: Status.Connecting });
  const posted: Array<{ route: string; body: unknown; auth: unknown }> = [];
  const rest = {
    post: (route: string, options: { body: unknown; auth: unknown }) => {
      posted.push({ route, body: options.body, auth: options.auth });
      return Promise.resolve(undefined);
    },
  };
  const client = { ws, rest } as unknown as Client;
  const time = new ManualTime();
  const logs = captureLogs('info');
  const queued = watchQueuedInteractions(client, logs.logger, time);
  const arrive = (id: string, type: InteractionType) =>
    ws.emit(GatewayDispatchEvents.InteractionCreate, { id, token: `token-${id}`, type, guild_id: '1' }, 0);
  const handedOver = (id: string) => queued.answeredWhileQueued({ id } as Interaction);
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return { ws, posted, time, queued, arrive, handedOver, settle };
}

describe('watchQueuedInteractions', () => {
  it('answers an interaction discord.js still queues after 1.5 s that the bot is starting, and passes over it later', async () => {
    const w = world();
    w.arrive('10', InteractionType.ApplicationCommand);
    await w.time.advance(1_499, w.settle);
    expect(w.posted).toEqual([]);
    await w.time.advance(1, w.settle);
    expect(w.posted).toEqual([
      {
        route: Routes.interactionCallback('10', 'token-10'),
        auth: false,
        body: {
          type: InteractionResponseType.ChannelMessageWithSource,
          data: { content: STILL_STARTING, flags: MessageFlags.Ephemeral, allowed_mentions: { parse: [] } },
        },
      },
    ]);
    // Handed over once every shard is up: the dispatcher is told to pass over it, once.
    expect(w.handedOver('10')).toBe(true);
    expect(w.handedOver('10')).toBe(false);
  });

  it('leaves an interaction handed over in time to the dispatcher and never answers it', async () => {
    const w = world();
    w.arrive('11', InteractionType.MessageComponent);
    await w.time.advance(1_000, w.settle);
    expect(w.handedOver('11')).toBe(false);
    await w.time.advance(10_000, w.settle);
    expect(w.posted).toEqual([]);
    expect(w.time.waiting).toBe(0);
  });

  it('answers an autocomplete with no choices', async () => {
    const w = world();
    w.arrive('12', InteractionType.ApplicationCommandAutocomplete);
    await w.time.advance(1_500, w.settle);
    expect(w.posted.map((post) => post.body)).toEqual([
      { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices: [] } },
    ]);
  });

  it('watches nothing once the gateway is ready, and nothing after detach', async () => {
    const w = world();
    w.ws.status = Status.Ready;
    w.arrive('13', InteractionType.ApplicationCommand);
    expect(w.time.waiting).toBe(0);

    w.ws.status = Status.Connecting;
    w.arrive('14', InteractionType.ApplicationCommand);
    w.queued.detach();
    w.arrive('15', InteractionType.ApplicationCommand);
    await w.time.advance(5_000, w.settle);
    expect(w.posted).toEqual([]);
    expect(w.ws.listenerCount(GatewayDispatchEvents.InteractionCreate)).toBe(0);
  });
});

import { afterEach, describe, expect, it } from 'vitest';

import { describeStatus } from '../../../src/features/health/describe-status.js';
import { STORE_MODULES } from '../../../src/features/index.js';
import { openStore } from '../../../src/store/open-store.js';
import type { SetAsideItem } from '../../../src/store/set-aside.js';
import type { Store } from '../../../src/store/store.js';

const GUILD = '222222222222222222';
const CHANNEL_A = '300000000000000001';
const CHANNEL_B = '300000000000000002';
const NOW = Date.UTC(2026, 10, 23, 12);

let store: Store;
afterEach(async () => {
  await store.close();
});

const delivery = (id: string, event: string) => ({
  hookId: 'hook-1',
  guildId: GUILD,
  deliveryId: id,
  event,
  receivedAt: NOW,
  rawBody: '{}',
});

describe('/status', () => {
  it('counts and lists what is kept aside, with why, and says when Discord refuses the token', async () => {
    store = await openStore('memory://', STORE_MODULES, () => NOW);
    await store.guilds.update(GUILD, (s) => ({ ...s, routes: { modcall: CHANNEL_A, 'case.created': CHANNEL_B } }));
    await store.deliveries.accept(delivery('unrouted-1', 'shift.started'));
    await store.deliveries.accept(delivery('refused-1', 'case.created'));
    const [refused] = await store.deliveries.nextFor(CHANNEL_B, 1);
    await store.deliveries.holdRefused([refused?.seq ?? -1], 'Discord 400: Invalid Form Body', NOW);
    await store.deliveries.accept(delivery('broken-1', 'modcall'));
    await store.deliveries.holdBrokenChannel({
      channelId: CHANNEL_A,
      guildId: GUILD,
      status: 403,
      reason: 'Discord 403: Missing Access',
      since: NOW,
    });
    await store.deliveries.accept(delivery('waiting-1', 'case.created'));
    await store.deliveries.noteFailure(CHANNEL_B, GUILD, NOW + 60_000);

    const lines = await describeStatus(GUILD, [], {
      ...store,
      secrets: { encrypts: false },
      discordHealth: { state: 'token refused', tokenRefusedSince: NOW - 60_000 },
    });
    expect(lines).toEqual([
      '**Feed status of this server**',
      'Server key: not set (run /setup).',
      'Webhooks: none (run /webhook register).',
      `Discord refuses this bot's token since <t:${(NOW - 60_000) / 1000}:R>: nothing can be posted until the host fixes DISCORD_TOKEN. Events are kept and will be posted then.`,
      'Events waiting to be posted: 1',
      'Broken channels (their events are kept; any /feed change tries them again):',
      `• <#${CHANNEL_A}>: Discord 403: Missing Access (since <t:${NOW / 1000}:R>)`,
      `Retrying <#${CHANNEL_B}> after 1 failed sends, next try <t:${(NOW + 60_000) / 1000}:R>.`,
      'Events kept for a broken channel: 1',
      'Events Discord refused (kept aside): 1',
      'Events with no channel: shift.started 1. Route them with /feed set or /feed default.',
      'Kept aside, oldest first:',
      '• shift.started `unrouted-1` · no channel for this event',
      '• case.created `refused-1` · Discord refused it: Discord 400: Invalid Form Body',
      '• modcall `broken-1` · its channel is broken: Discord 403: Missing Access',
    ]);
  });

  it('lists what the batch jobs set aside for the server, with why and when each is tried again', async () => {
    store = await openStore('memory://', STORE_MODULES, () => NOW);
    const setAside: SetAsideItem[] = [
      {
        job: 'record-writer',
        item: '17',
        guildId: GUILD,
        label: 'case.created dlv_01',
        reason: 'new row for relation "record_case" violates check constraint "case_reason_length"',
        attempts: 1,
        since: NOW - 60_000,
        retryAt: NOW,
      },
      {
        job: 'record-sweep',
        item: GUILD,
        guildId: GUILD,
        label: "the community record's retention sweep",
        reason: 'canceling statement due to lock timeout',
        attempts: 3,
        since: NOW - 7_200_000,
        retryAt: NOW + 3_600_000,
      },
    ];
    const lines = await describeStatus(GUILD, [], {
      ...store,
      secrets: { encrypts: false },
      discordHealth: { state: 'ready', tokenRefusedSince: undefined },
      setAside: { listForGuild: (guildId) => Promise.resolve(guildId === GUILD ? setAside : []) },
    });
    expect(lines.slice(lines.indexOf('Broken channels: none.') + 1)).toEqual([
      'Set aside (the bot could not do these on their own; each is tried again, later each time):',
      `• case.created dlv_01, not in the community record yet: ${setAside[0]?.reason} (1 failed try since <t:${(NOW - 60_000) / 1000}:R>, next try <t:${NOW / 1000}:R>)`,
      `• the community record's retention sweep: canceling statement due to lock timeout (3 failed tries since <t:${(NOW - 7_200_000) / 1000}:R>, next try <t:${(NOW + 3_600_000) / 1000}:R>)`,
    ]);
    const none = await describeStatus('333333333333333333', [], {
      ...store,
      secrets: { encrypts: false },
      discordHealth: { state: 'ready', tokenRefusedSince: undefined },
      setAside: { listForGuild: (guildId) => Promise.resolve(guildId === GUILD ? setAside : []) },
    });
    expect(none.join('\n')).not.toContain('Set aside');
  });
});

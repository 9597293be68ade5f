import { describe, expect, it } from 'vitest';

import { auditModule } from '../../src/features/audit/store/audit-module.js';
import { digestModule } from '../../src/features/digest/store/digest-module.js';
import { dutyModule } from '../../src/features/duty/store/duty-module.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { emptyGuildSettings } from '../../src/store/guild-settings.js';
import { CHANNEL_A, CHANNEL_B, delivery, GUILD, HOUR, storeHarness, type StoreUnderTest } from './store-under-test.js';

/**
 * What forgetting a guild counts in every feature's store module when it finds nothing there (the community
 * record's `recordRows`, /duty's `dutySettings` and `dutyRoleHolders`, the digest's `digestRows`, and whatever a
 * module added later counts): each is counted, 0 or more.
 */
const NOTHING_IN_MODULES = Object.fromEntries(
  STORE_MODULES.flatMap((module) => module.forgetGuild.flatMap(({ counted }) => (counted ? [[counted, 0]] : []))),
) as Record<string, number>;

/**
 * The store port's contract for what is kept per guild: hooks and their activity, the admin actions, and forgetting a
 * guild the bot left, all at once and nothing of another guild.
 * `engine` names the engine in the test titles.
 */
export function describeGuildStoreContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`the guild contract on ${engine}`, () => {
    const { now, start, restart, post, use } = storeHarness();

    it('stores hooks and their activity', async () => {
      await use(makeEngine);
      const store = await start();
      const hook = {
        hookId: 'hook-1',
        guildId: GUILD,
        webhookId: 'wh_1',
        secret: 'sealed',
        events: ['modcall'],
        createdAt: 5,
      };
      await store.hooks.save(hook);
      await store.hooks.save({ ...hook, hookId: 'hook-0', createdAt: 1 });
      expect(await store.hooks.get('hook-1')).toEqual(hook);
      expect((await store.hooks.listForGuild(GUILD)).map((h) => h.hookId)).toEqual(['hook-0', 'hook-1']);
      await store.activity.noteRefused('hook-1', 'signature_mismatch', 10);
      await store.activity.noteRefused('hook-1', 'stale_timestamp', 11);
      // What the service says of on/off is announced, for the health alerts of whichever process holds them.
      const announced = new Promise((resolve) => {
        const stop = store.signals.subscribe((signal) => {
          if (signal.kind === 'hook-state') {
            stop();
            resolve(signal);
          }
        });
      });
      await store.activity.noteState('hook-1', false, 12);
      expect(await announced).toEqual({ kind: 'hook-state', hookId: 'hook-1', enabled: false });
      expect(await store.activity.get('hook-1')).toMatchObject({
        refused: 2,
        refusedInARow: 2,
        lastRefusal: 'stale_timestamp',
        state: { enabled: false, at: 12 },
      });
      await store.deliveries.accept(delivery('a1'));
      expect(await store.activity.get('hook-1')).toMatchObject({
        lastDeliveryAt: 1_000,
        lastEvent: 'modcall',
        refused: 2,
        refusedInARow: 0,
      });
      // The service's ping counts as a delivery seen, and is heard by whoever waits for it.
      const heard = new Promise((resolve) => {
        const stop = store.signals.subscribe((signal) => {
          if (signal.kind === 'hook-outcome' && signal.outcome.ok && signal.outcome.event === 'ping') {
            stop();
            resolve(signal.outcome);
          }
        });
      });
      await store.activity.noteAccepted('hook-1', 'ping', 2_000);
      expect(await heard).toEqual({ ok: true, event: 'ping', at: 2_000 });
      expect(await store.activity.get('hook-1')).toMatchObject({ lastDeliveryAt: 2_000, lastEvent: 'ping' });
      // What another store knew of a hook replaces what this one knew.
      const elsewhere = {
        lastDeliveryAt: 3_000,
        lastEvent: 'shift.ended',
        refused: 7,
        refusedInARow: 3,
        lastRefusal: 'signature_mismatch' as const,
        state: { enabled: true, at: 2_500 },
      };
      await store.activity.restore('hook-1', elsewhere);
      expect(await store.activity.get('hook-1')).toEqual(elsewhere);
      await store.activity.restore('hook-0', { ...elsewhere, lastRefusal: undefined, state: undefined });
      expect(await store.activity.get('hook-0')).toEqual({ ...elsewhere, lastRefusal: undefined, state: undefined });
      await store.hooks.remove('hook-1');
      await store.activity.forget('hook-1');
      expect(await store.hooks.get('hook-1')).toBeUndefined();
      expect(await store.activity.get('hook-1')).toMatchObject({ refused: 0, lastDeliveryAt: undefined });
      expect((await store.hooks.listAll()).map((h) => h.hookId)).toEqual(['hook-0']);
    });

    it('keeps admin actions per server, newest first in the order stored, and forgets old ones', async () => {
      await use(makeEngine);
      const store = await start();
      const entry = (action: string, at: number, guildId = GUILD) => ({
        guildId,
        userId: 'u1',
        action,
        result: 'done' as const,
        detail: null,
        at,
      });
      // Same time for two: the order stored decides, not the clock.
      await store.of(auditModule).append(entry('/feed set', 10));
      await store.of(auditModule).append(entry('/alerts set', 20));
      await store
        .of(auditModule)
        .append({ ...entry('/webhook test', 20), result: 'refused', detail: 'No server key yet.' });
      await store.of(auditModule).append(entry('/status', 30, 'another-guild'));
      expect((await store.of(auditModule).latest(GUILD, 25)).map((e) => e.action)).toEqual([
        '/webhook test',
        '/alerts set',
        '/feed set',
      ]);
      expect(await store.of(auditModule).latest(GUILD, 1)).toEqual([
        { ...entry('/webhook test', 20), result: 'refused', detail: 'No server key yet.' },
      ]);
      // Every server's, oldest first: what migrate-store copies.
      expect((await store.of(auditModule).listAll()).map((e) => [e.guildId, e.action])).toEqual([
        [GUILD, '/feed set'],
        [GUILD, '/alerts set'],
        [GUILD, '/webhook test'],
        ['another-guild', '/status'],
      ]);
      const reopened = await restart(store);
      expect(await reopened.of(auditModule).sweep(15)).toBe(1);
      expect((await reopened.of(auditModule).latest(GUILD, 25)).map((e) => e.action)).toEqual([
        '/webhook test',
        '/alerts set',
      ]);
    });

    it('forgets a guild it left, all at once: hooks, settings and server key, deliveries, documents; not another guild', async () => {
      await use(makeEngine);
      const store = await start();
      const other = '222222222222222229';
      const hook = (hookId: string, guildId = GUILD) => ({
        hookId,
        guildId,
        webhookId: `wh_${hookId}`,
        secret: 'sealed:v1:secret',
        events: ['all'],
        createdAt: 1,
      });
      await store.hooks.save(hook('hook-1'));
      await store.hooks.save(hook('hook-2'));
      await store.hooks.save(hook('hook-x', other));
      // Cached before it is forgotten: the cached copy must go with the row.
      expect(await store.hooks.get('hook-1')).toEqual(hook('hook-1'));
      await store.guilds.update(GUILD, (settings) => ({
        ...settings,
        serverKey: 'sealed:v1:server-key',
        routes: { modcall: CHANNEL_A },
      }));
      await store.guilds.update(other, (settings) => ({ ...settings, defaultChannelId: CHANNEL_B }));
      await store.deliveries.accept(delivery('posted'));
      expect(await post(store, CHANNEL_A, 'n1')).toEqual(['posted']);
      await store.deliveries.accept(delivery('waiting', 'modcall', 'hook-2'));
      await store.deliveries.accept(delivery('unrouted', 'shift.started'));
      await store.deliveries.accept({ ...delivery('elsewhere', 'modcall', 'hook-x'), guildId: other });
      await store.deliveries.noteFailure(CHANNEL_A, GUILD, now.ms + HOUR);
      await store.activity.noteRefused('hook-1', 'signature_mismatch', 10);
      await store.documents.update('app_guild', GUILD, () => ({ developerKey: 'sealed:v1:developer-key' }));
      await store.documents.update('app_cards', `${GUILD}:77`, () => ({ versions: {} }));
      await store.documents.update('incident', `${GUILD}:held:`, () => null);
      await store.documents.update('app_guild', other, () => ({ developerKey: 'sealed:v1:theirs' }));
      // Another guild whose id starts with this one's: its documents are its own.
      await store.documents.update('app_guild', `${GUILD}9`, () => ({ developerKey: 'sealed:v1:longer' }));
      await store.documents.update('heartbeat', 'last', () => 5);
      await store.of(dutyModule).setBoardChannel(GUILD, CHANNEL_A);
      await store.of(dutyModule).setBoardChannel(other, CHANNEL_B);
      // A guild with settings and no webhook is known too (its server key, its routes).
      const settingsOnly = '555555555555555555';
      await store.guilds.update(settingsOnly, (settings) => ({ ...settings, serverKey: 'sealed:v1:key-only' }));
      // So is a guild whose webhooks were removed but that keeps its weekly digest, or its on-shift role.
      const digestOnly = '666666666666666666';
      await store.of(digestModule).setSchedule({
        guildId: digestOnly,
        channelId: CHANNEL_B,
        weekday: 1,
        hour: 9,
        timeZone: 'UTC',
        nextAt: 1,
      });
      const dutyOnly = '777777777777777777';
      await store.of(dutyModule).setRole(dutyOnly, '888888888888888888', '999999999999999999');
      expect((await store.knownGuilds()).sort()).toEqual([GUILD, other, settingsOnly, digestOnly, dutyOnly].sort());

      expect(await store.forgetGuild(GUILD)).toEqual({
        ...NOTHING_IN_MODULES,
        hooks: 2,
        serverKeys: 1,
        openDeliveries: 2,
        documents: 3,
        dutySettings: 1,
      });

      expect(await store.hooks.get('hook-1')).toBeUndefined();
      expect(await store.hooks.listForGuild(GUILD)).toEqual([]);
      expect(await store.activity.get('hook-1')).toMatchObject({ refused: 0, lastRefusal: undefined });
      expect(await store.guilds.get(GUILD)).toEqual(emptyGuildSettings(GUILD));
      for (const id of ['posted', 'waiting', 'unrouted']) {
        expect(await store.deliveries.stateOf(id === 'waiting' ? 'hook-2' : 'hook-1', id)).toBeUndefined();
      }
      expect(await store.deliveries.statusOf(GUILD)).toMatchObject({ waiting: 0, unrouted: {}, retrying: [] });
      expect(await store.deliveries.nextFor(CHANNEL_A, 10)).toEqual([]);
      expect(await store.documents.get('app_guild', GUILD)).toBeUndefined();
      expect(await store.documents.get('app_cards', `${GUILD}:77`)).toBeUndefined();
      expect(await store.documents.kinds()).toEqual(['app_guild', 'heartbeat']);
      // The service's retry of a delivery it had posted finds no hook to go to.
      expect(await store.deliveries.accept(delivery('posted'), { requireHook: true })).toBe('unknown-hook');

      // The other guild keeps everything.
      expect((await store.hooks.listForGuild(other)).map((h) => h.hookId)).toEqual(['hook-x']);
      expect((await store.guilds.get(other)).defaultChannelId).toBe(CHANNEL_B);
      expect((await store.deliveries.listOpen()).map((entry) => entry.deliveryId)).toEqual(['elsewhere']);
      expect(await store.documents.get('app_guild', other)).toEqual({ developerKey: 'sealed:v1:theirs' });
      expect(await store.documents.get('app_guild', `${GUILD}9`)).toEqual({ developerKey: 'sealed:v1:longer' });
      expect((await store.of(dutyModule).settingsOf(GUILD)).boardChannelId).toBeNull();
      expect((await store.of(dutyModule).settingsOf(other)).boardChannelId).toBe(CHANNEL_B);

      expect((await store.knownGuilds()).sort()).toEqual([other, settingsOnly, digestOnly, dutyOnly].sort());

      // Nothing comes back after a restart, and forgetting again finds nothing.
      const reopened = await restart(store);
      expect((await reopened.knownGuilds()).sort()).toEqual([other, settingsOnly, digestOnly, dutyOnly].sort());
      expect(await reopened.hooks.get('hook-2')).toBeUndefined();
      expect((await reopened.guilds.get(GUILD)).serverKey).toBeNull();
      expect(await reopened.forgetGuild(GUILD)).toEqual({
        ...NOTHING_IN_MODULES,
        hooks: 0,
        serverKeys: 0,
        openDeliveries: 0,
        documents: 0,
      });
      expect(await reopened.forgetGuild(digestOnly)).toMatchObject({ hooks: 0, digestRows: 1 });
      expect(await reopened.forgetGuild(dutyOnly)).toMatchObject({ hooks: 0, dutySettings: 1 });
      expect((await reopened.knownGuilds()).sort()).toEqual([other, settingsOnly].sort());
    });
  });
}

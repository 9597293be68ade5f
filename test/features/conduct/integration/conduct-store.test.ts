import { expect, it } from 'vitest';

import { DEFAULT_RULES } from '../../../../src/features/conduct/rules.js';
import { conductModule } from '../../../../src/features/conduct/store/conduct-module.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { openStore } from '../../../../src/store/open-store.js';
import { describeOnEngines } from '../../../properties/play-community.js';
import { deliver, fiveBans, MINUTE, recordAndJudge } from './conduct-scene.js';

/*
 * The conduct guard's store module on both engines: a guild's settings, forgetting a guild (every conduct table,
 * counted, nothing of another guild), the guilds it keeps something for, the hourly sweep of findings past their
 * retention, and migrate-store's copy (settings and findings with their alerts' messages).
 */

const T = Date.UTC(2026, 4, 4, 20);

describeOnEngines('the conduct store', (engine) => {
  it('keeps a guild’s settings, rules at their defaults until changed', async () => {
    const conduct = engine.store().of(conductModule);
    const guildId = engine.nextGuild();
    expect(await conduct.settingsOf(guildId)).toEqual({ guildId, channelId: null, roleId: null, rules: DEFAULT_RULES });
    await conduct.setChannel(guildId, '300000000000000001');
    await conduct.setRole(guildId, '400000000000000001');
    const rules = {
      ...DEFAULT_RULES,
      bans: { on: true, count: 3, minutes: 4 },
      voids: { ...DEFAULT_RULES.voids, on: false },
    };
    await conduct.setRules(guildId, rules);
    expect(await conduct.settingsOf(guildId)).toEqual({
      guildId,
      channelId: '300000000000000001',
      roleId: '400000000000000001',
      rules,
    });
  });

  it('forgets a guild in every conduct table, counted, and keeps the others', async () => {
    const store = engine.store();
    const [gone, kept] = [engine.nextGuild(), engine.nextGuild()];
    for (const guildId of [gone, kept]) {
      await store.of(conductModule).setChannel(guildId, '300000000000000001');
      await deliver(store, guildId, fiveBans(T));
      await recordAndJudge(store, () => T);
    }
    // Something still due in the forgotten guild: a case merged and not judged yet.
    await store.of(conductModule).noteDue([{ guildId: gone, kind: 'case', server: 's', number: 9 }], T);
    expect(await store.knownGuilds()).toEqual(expect.arrayContaining([gone, kept]));

    expect(await store.forgetGuild(gone)).toMatchObject({ conductSettings: 1, conductDue: 1, conductFindings: 1 });
    expect(await store.knownGuilds()).not.toContain(gone);
    expect(await store.of(conductModule).findingsOf(gone, 10)).toEqual([]);
    expect(await store.of(conductModule).dueItems(T + 1, 100)).not.toContainEqual(
      expect.objectContaining({ guildId: gone }),
    );
    expect((await store.of(conductModule).settingsOf(gone)).channelId).toBeNull();
    expect(await store.of(conductModule).findingsOf(kept, 10)).toHaveLength(1);
    expect((await store.of(conductModule).settingsOf(kept)).channelId).toBe('300000000000000001');
  });

  it('sweeps findings whose last case is past their retention, a bounded slice at a time', async () => {
    const store = engine.store();
    const guildId = engine.nextGuild();
    const conduct = store.of(conductModule);
    await conduct.setChannel(guildId, '300000000000000001');
    await deliver(store, guildId, [...fiveBans(T), ...fiveBans(T + 60 * MINUTE, 11)]);
    await recordAndJudge(store, () => T);
    expect(await conduct.findingsOf(guildId, 10)).toHaveLength(2);
    // Past the first burst's last case only (other guilds' findings of the shared store go too), one at a time.
    expect(await conduct.sweep(T + 30 * MINUTE, 1)).toBe(1);
    while ((await conduct.sweep(T + 30 * MINUTE, 1)) > 0) {
      // The hourly sweep takes a slice; the next slice comes an hour later.
    }
    const left = await conduct.findingsOf(guildId, 10);
    expect(left.map((finding) => finding.hits.map((hit) => hit.number))).toEqual([[11, 12, 13, 14, 15]]);
  });

  it('is copied by migrate-store with its findings’ alerts, so the copy edits them rather than posting again', async () => {
    const store = engine.store();
    const guildId = engine.nextGuild();
    const conduct = store.of(conductModule);
    await conduct.setChannel(guildId, '300000000000000001');
    await conduct.setRole(guildId, '400000000000000001');
    await deliver(store, guildId, fiveBans(T));
    await recordAndJudge(store, () => T);
    const [finding] = await conduct.findingsOf(guildId, 10);
    if (!finding) throw new Error('no finding');
    const message = { channelId: '300000000000000001', messageId: '600000000000000001', nonce: 'n1', writtenAt: T };
    await conduct.setMessage(guildId, finding.id, message);
    await conduct.markSynced(guildId, finding.id, finding.version);

    const target = await openStore('memory://', STORE_MODULES);
    try {
      await conductModule.copy(conduct, target.of(conductModule));
      const copied = target.of(conductModule);
      expect(await copied.settingsOf(guildId)).toEqual(await conduct.settingsOf(guildId));
      const [copy] = await copied.findingsOf(guildId, 10);
      expect(copy).toEqual({ ...finding, message, syncedVersion: finding.version });
      const behind = await copied.unsynced(T + 1, 1_000);
      expect(behind.filter((found) => found.guildId === guildId)).toEqual([]);
    } finally {
      await target.close();
    }
  });
});

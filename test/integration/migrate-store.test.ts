import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

import { auditModule } from '../../src/features/audit/store/audit-module.js';
import { dutyModule } from '../../src/features/duty/store/duty-module.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { recordModule } from '../../src/features/record/store/record-module.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const GUILD = '222222222222222222';
const CHANNEL = '300000000000000001';
const SERVER_CHANNEL = '300000000000000002';

/** Writes down the lane's next message as the feed does before a send. */
async function writeDownNext(store: Store, channelId: string, nonce: string): Promise<void> {
  const entries = await store.deliveries.nextFor(channelId, 10);
  const seqs = entries.map((entry) => entry.seq);
  const message = JSON.stringify({ written: nonce });
  if (!(await store.deliveries.writeDown(channelId, nonce, seqs, message))) throw new Error('not written down');
}

/**
 * What the summary says each feature's store module copied, in the features' order: the counts given by module
 * name, 0 for the others (the audit entries, the community record's rows, the guilds' /duty settings, the quotas'
 * and digests' rows, and a module added later, which has nothing in this store).
 */
function copiedInModules(counts: Readonly<Record<string, number>>): string {
  return STORE_MODULES.map((module) => `${counts[module.name] ?? 0} ${module.copied}, `).join('');
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(!POSTGRES_URL)('npm run migrate-store', () => {
  it('moves everything the bot must not lose from a SQLite file to PostgreSQL, and copies nothing twice when run again', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const from = `sqlite://${dir.path}/bot.sqlite`;
    const source = await openStore(from, STORE_MODULES);
    await source.hooks.save({
      hookId: 'h1',
      guildId: GUILD,
      webhookId: 'wh_1',
      secret: 'sealed',
      events: ['all'],
      createdAt: 1,
    });
    // Server 456's modcalls have a channel of their own, server 789's are off, the rest go to the default.
    await source.guilds.update(GUILD, (s) => ({
      ...s,
      serverKey: 'sealed-key',
      defaultChannelId: CHANNEL,
      rules: [
        { server: '456', event: 'modcall', channelId: SERVER_CHANNEL },
        { server: '789', event: 'modcall', channelId: null },
      ],
    }));
    const delivery = (id: string, server?: string) => ({
      hookId: 'h1',
      guildId: GUILD,
      deliveryId: id,
      event: 'modcall',
      receivedAt: 5,
      rawBody: '{}',
      ...(server !== undefined ? { server } : {}),
    });
    // Posted an hour ago: the service may still retry it.
    await source.deliveries.accept(delivery('posted-1'));
    await writeDownNext(source, CHANNEL, 'nonce-posted');
    await source.deliveries.ack(CHANNEL, 'nonce-posted', Date.now() - 60 * 60 * 1000);
    await source.deliveries.accept(delivery('muted-1', '789'));
    await source.deliveries.accept(delivery('waiting-1'));
    await source.deliveries.accept(delivery('waiting-2'));
    await source.deliveries.accept(delivery('server-456', '456'));
    // The bot stopped between sending this message and Discord's answer: it is written down, not confirmed.
    await writeDownNext(source, CHANNEL, 'nonce-in-flight');
    await source.documents.update('app_guild', GUILD, () => ({ guildId: GUILD, developerKey: 'sealed-upk' }));
    await source.documents.update('alert_settings', GUILD, () => ({ guildId: GUILD, channelId: CHANNEL }));
    await source
      .of(auditModule)
      .append({ guildId: GUILD, userId: 'u1', action: '/setup', result: 'done', detail: null, at: 3 });
    await source.of(auditModule).append({
      guildId: GUILD,
      userId: 'u1',
      action: '/feed off',
      result: 'done',
      detail: null,
      at: 4,
    });
    // The community record: one case merged before the move, one whose update the writer had not merged yet.
    const caseOf = (number: number) => ({
      ...delivery(`case-${number}`, '456'),
      event: 'case.created',
      rawBody: JSON.stringify({
        id: `case-${number}`,
        event: 'case.created',
        at: number,
        data: { case: { number, type: 'warn', target: { robloxId: '9', name: 'Bob' }, createdAt: number } },
      }),
    });
    await source.deliveries.accept(caseOf(1));
    await source.of(recordModule).recordPending(10);
    await source.deliveries.accept(caseOf(2));
    await source.of(recordModule).setRetentionDays(GUILD, 90);
    await source.of(dutyModule).setBoardChannel(GUILD, CHANNEL);
    await source.of(dutyModule).setBoardMessage(GUILD, CHANNEL, '700000000000000001');
    await source.of(dutyModule).setRole(GUILD, '600000000000000001', '400000000000000009');
    await source.of(dutyModule).noteRoleHolder(GUILD, {
      memberId: '400000000000000001',
      roleId: '600000000000000001',
      givenAt: 4_000,
    });
    await source.of(dutyModule).setMinimum(GUILD, { staff: 3, afterMinutes: 15 });
    await source.of(dutyModule).setUncoveredSince(GUILD, 5_000);
    await source.activity.noteRefused('h1', 'signature_mismatch', 6);
    await source.activity.noteState('h1', false, 7);
    const activity = await source.activity.get('h1');
    await source.close();

    const migrate = () =>
      run(process.execPath, ['--import', 'tsx', 'scripts/migrate-store.ts', '--from', from, '--to', database.url]);
    expect((await migrate()).stdout).toBe(
      'migrate-store: copied 1 hooks, 1 guild settings, 2 documents, ' +
        copiedInModules({ audit: 2, record: 4, duty: 1 }) +
        '2 posted delivery ids and ' +
        '5 open deliveries (1 written-down messages kept with their nonce)\n',
    );

    const target = await openStore(database.url, STORE_MODULES);
    cleanups.push(() => target.close());
    expect(await target.hooks.get('h1')).toMatchObject({ guildId: GUILD, secret: 'sealed' });
    expect(await target.guilds.get(GUILD)).toMatchObject({ serverKey: 'sealed-key', defaultChannelId: CHANNEL });
    // Before any delivery below counts as the hook's activity.
    expect(await target.activity.get('h1')).toEqual(activity);
    // The service's retry of what was posted before the move is still a duplicate; the muted one still counted.
    expect(await target.deliveries.accept(delivery('posted-1'))).toBe('duplicate');
    expect(await target.deliveries.accept(delivery('muted-1', '789'))).toBe('duplicate');
    expect((await target.deliveries.statusOf(GUILD)).muted).toEqual({ modcall: 1 });
    // The message in flight goes again with its nonce (Discord returns the first post if it got it).
    const inFlight = await target.deliveries.nextFor(CHANNEL, 10);
    expect(inFlight.map((entry) => [entry.deliveryId, entry.writtenNonce])).toEqual([
      ['waiting-1', 'nonce-in-flight'],
      ['waiting-2', 'nonce-in-flight'],
    ]);
    // Exactly as it was written down.
    expect(await target.deliveries.writtenMessage(CHANNEL, 'nonce-in-flight')).toBe('{"written":"nonce-in-flight"}');
    // Routed by its game server, as before the move.
    expect((await target.deliveries.nextFor(SERVER_CHANNEL, 10)).map((entry) => entry.deliveryId)).toEqual([
      'server-456',
    ]);
    expect(await target.documents.get('app_guild', GUILD)).toEqual({ guildId: GUILD, developerKey: 'sealed-upk' });
    expect(await target.documents.get('alert_settings', GUILD)).toEqual({ guildId: GUILD, channelId: CHANNEL });
    expect(await target.of(dutyModule).settingsOf(GUILD)).toEqual({
      guildId: GUILD,
      boardChannelId: CHANNEL,
      boardMessageId: '700000000000000001',
      roleId: '600000000000000001',
      roleSetBy: '400000000000000009',
    });
    // Whom the bot gave the role to: the copy takes it back from them when the role changes.
    expect(await target.of(dutyModule).roleHoldersOf(GUILD)).toEqual([
      { memberId: '400000000000000001', roleId: '600000000000000001', givenAt: 4_000 },
    ]);
    expect(await target.of(dutyModule).coverageOf(GUILD)).toEqual({
      guildId: GUILD,
      minimum: { staff: 3, afterMinutes: 15 },
      uncoveredSince: 5_000,
    });
    expect((await target.of(auditModule).latest(GUILD, 25)).map((entry) => entry.action)).toEqual([
      '/feed off',
      '/setup',
    ]);
    expect(
      (await target.of(recordModule).casesOf(GUILD, '9', { limit: 10, offset: 0 })).map((found) => found.number),
    ).toEqual([2, 1]);
    expect(await target.of(recordModule).settingsOf(GUILD)).toEqual({ retentionDays: 90, staffRoleId: null });
    // The open deliveries copied are read by the target's writer again: what they tell is recorded once all the same.
    await target.of(recordModule).recordPending(10);
    expect(
      (await target.of(recordModule).casesOf(GUILD, '9', { limit: 10, offset: 0 })).map((found) => found.number),
    ).toEqual([2, 1]);

    expect((await migrate()).stdout).toBe(
      'migrate-store: copied 1 hooks, 1 guild settings, 2 documents, ' +
        copiedInModules({ duty: 1 }) +
        '0 posted delivery ids and ' +
        '0 open deliveries (1 written-down messages kept with their nonce)\n',
    );
    expect((await target.of(auditModule).latest(GUILD, 25)).map((entry) => entry.action)).toEqual([
      '/feed off',
      '/setup',
    ]);
    expect(await target.deliveries.countOpen()).toBe(5);
  });

  it('refuses to copy from a SQLite file a bot process still holds', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const from = `sqlite://${dir.path}/bot.sqlite`;
    const running = await openStore(from, STORE_MODULES);
    cleanups.push(() => running.close());
    const failure = await run(process.execPath, [
      '--import',
      'tsx',
      'scripts/migrate-store.ts',
      '--from',
      from,
      '--to',
      `sqlite://${dir.path}/copy.sqlite`,
    ]).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('another process is already using');
  });
});

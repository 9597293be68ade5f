import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

import { openStore } from '../../src/store/open-store.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const GUILD = '222222222222222222';
const CHANNEL = '300000000000000001';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(!POSTGRES_URL)('npm run migrate-store', () => {
  it('moves hooks, settings and open deliveries from a SQLite file to PostgreSQL', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const from = `sqlite://${dir.path}/bot.sqlite`;
    const source = await openStore(from);
    await source.hooks.save({
      hookId: 'h1',
      guildId: GUILD,
      webhookId: 'wh_1',
      secret: 'sealed',
      events: ['all'],
      createdAt: 1,
    });
    await source.guilds.update(GUILD, (s) => ({ ...s, serverKey: 'sealed-key', defaultChannelId: CHANNEL }));
    const delivery = (id: string) => ({
      hookId: 'h1',
      guildId: GUILD,
      deliveryId: id,
      event: 'modcall',
      receivedAt: 5,
      rawBody: '{}',
    });
    await source.deliveries.accept(delivery('waiting-1'));
    await source.deliveries.accept(delivery('waiting-2'));
    await source.close();

    const { stdout } = await run(process.execPath, [
      '--import',
      'tsx',
      'scripts/migrate-store.ts',
      '--from',
      from,
      '--to',
      database.url,
    ]);
    expect(stdout).toBe('migrate-store: copied 1 hooks, 1 guild settings and 2 open deliveries\n');

    const target = await openStore(database.url);
    cleanups.push(() => target.close());
    expect(await target.hooks.get('h1')).toMatchObject({ guildId: GUILD, secret: 'sealed' });
    expect(await target.guilds.get(GUILD)).toMatchObject({ serverKey: 'sealed-key', defaultChannelId: CHANNEL });
    expect((await target.deliveries.nextFor(CHANNEL, 10)).map((entry) => entry.deliveryId)).toEqual([
      'waiting-1',
      'waiting-2',
    ]);
  });

  it('refuses to copy from a SQLite file a bot process still holds', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const from = `sqlite://${dir.path}/bot.sqlite`;
    const running = await openStore(from);
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

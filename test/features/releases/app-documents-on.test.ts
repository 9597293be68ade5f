import { afterEach, describe, expect, it } from 'vitest';

import { emptyAppGuild, type Watch } from '../../../src/features/releases/app-documents.js';
import { openAppDocuments } from '../../helpers/app-documents.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const opened: Awaited<ReturnType<typeof openAppDocuments>>[] = [];
const dirs: Array<ReturnType<typeof makeTempDir>> = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((records) => records.close()));
  for (const dir of dirs.splice(0)) dir.remove();
});

async function open(storeUrl: string): Promise<Awaited<ReturnType<typeof openAppDocuments>>> {
  const records = await openAppDocuments(storeUrl);
  opened.push(records);
  return records;
}

const watch = (appId: string): Watch => ({
  appId,
  appName: `App ${appId}`,
  channelId: '10',
  roleId: null,
  createdAt: 1,
  createdBy: '2',
  baseline: null,
});

describe('AppDocuments on the store', () => {
  it('answers an empty record for a guild it has never seen, and lists only stored guilds', async () => {
    const records = await open('memory://');
    expect(await records.readGuild('g1')).toEqual(emptyAppGuild('g1'));
    expect(await records.readCards('g1', '7')).toEqual({ guildId: 'g1', appId: '7', versions: {} });
    expect(await records.listGuilds()).toEqual([]);
  });

  it('serialises concurrent changes of one guild so none is lost', async () => {
    const records = await open('memory://');
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        records.updateGuild('g1', (guild) => ({
          ...guild,
          watches: { ...guild.watches, [String(index)]: watch(String(index)) },
        })),
      ),
    );
    expect(Object.keys((await records.readGuild('g1')).watches)).toHaveLength(20);
  });

  it('keeps going after a change that throws, and refuses a record that breaks its schema', async () => {
    const records = await open('memory://');
    await expect(
      records.updateGuild('g1', () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(records.updateGuild('g1', (guild) => ({ ...guild, submissions: [1.5] }))).rejects.toThrow();
    const stored = await records.updateGuild('g1', (guild) => ({ ...guild, managersRoleId: '55' }));
    expect(stored.managersRoleId).toBe('55');
  });

  it('keeps guilds and cards in the SQLite file across a reopen, and forgets deleted cards', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const url = `sqlite://${dir.path}/bot.sqlite`;
    const first = await open(url);
    await first.updateGuild('g1', (guild) => ({ ...guild, developerKey: 'sealed:v1:x', watches: { '7': watch('7') } }));
    const card = {
      label: '1.0',
      channelId: '10',
      messageId: '99',
      nonce: 'n',
      state: 'in_review',
      pending: true,
      stateSince: 5,
      pendingSince: 5,
      whatsNew: null,
      withdrawnBy: null,
      outcomeAnnounced: null,
    };
    await first.updateCards('g1', '7', (cards) => ({ ...cards, versions: { '1.0': card } }));
    await first.updateCards('g1', '8', (cards) => ({ ...cards, versions: { '2.0': { ...card, label: '2.0' } } }));
    await first.close();
    opened.splice(opened.indexOf(first), 1);

    const second = await open(url);
    expect((await second.listGuilds()).map((guild) => [guild.guildId, Object.keys(guild.watches)])).toEqual([
      ['g1', ['7']],
    ]);
    expect((await second.readCards('g1', '7')).versions['1.0']).toEqual(card);
    await second.deleteCards('g1', '8');
    expect(await second.readCards('g1', '8')).toEqual({ guildId: 'g1', appId: '8', versions: {} });
  });
});

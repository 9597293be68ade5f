import { afterEach, describe, expect, it } from 'vitest';

import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { commandOption, registerEveryEvent, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const created = SAMPLE_DELIVERIES['case.created'].data.case;

/**
 * Who looked whom up: /case lookup, /staff stats and /export are lines of the audit log (kind `lookup`), each
 * naming who asked, when and about whom, never what the record answered; /audit kind: shows one kind.
 */
/** The SQL that makes the database refuse a new audit line, as a full disk would. */
const REFUSE_AUDIT_LINES = {
  SQLite: `CREATE TRIGGER refuse_audit BEFORE INSERT ON audit BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
  PostgreSQL: `
    CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
    CREATE TRIGGER refuse_audit BEFORE INSERT ON audit FOR EACH ROW EXECUTE FUNCTION refuse_audit();`,
};

describe.each(STORE_ENGINES)('lookups in the audit log, on $name', ({ name, available, create }) => {
  let h: AdminHarness | undefined;
  let db: EngineDatabase | undefined;

  afterEach(async () => {
    await h?.stop();
    await db?.dispose();
  });

  it.skipIf(!available)(
    'records each lookup with its subject and never its answer; /audit filters by kind',
    async () => {
      db = await create();
      h = await startAdminHarness({ storeUrl: db.url });
      const harness = h;
      const webhookId = await registerEveryEvent(harness);
      await harness.service.deliver(webhookId, {
        event: 'case.created',
        data: { case: { ...created, createdAt: Date.now() } },
      });
      await harness.discord.waitFor(
        async () =>
          (await harness.bot.store.of(recordModule).caseTotals(harness.guild.id, created.target.robloxId)).length > 0,
        10_000,
        'the case recorded',
      );
      const { admin, member } = harness.discord.users;
      await harness.run('feed', 'default', [commandOption.channel('channel', harness.channel('general'))]);
      const answer = await harness.run('case', 'lookup', [commandOption.string('player', 'speedyracer_09')]);
      expect(answer.outcome.reply?.embeds[0]?.title).toBe('SpeedyRacer\\_09 (2391045817): 1 case');
      await harness.run('staff', 'stats', [commandOption.user('member', member.id)]);
      await harness.run('export', undefined, [commandOption.string('kind', 'cases')]);
      // The dispatcher writes an export's line once it answered.
      const engine = db;
      await harness.discord.waitFor(
        async () => (await engine.query(`SELECT id FROM audit WHERE action LIKE '/export%'`)).length === 1,
        5_000,
        "the export's line",
      );

      const shown = async (kind?: string) => {
        const answer = await harness.run('audit', undefined, kind ? [commandOption.string('kind', kind)] : []);
        return (answer.outcome.reply?.embeds[0]?.description ?? answer.text).split('\n');
      };
      const lookups = await shown('lookup');
      expect(lookups).toEqual([
        expect.stringMatching(new RegExp(`<@${admin.id}> /export kind:cases → done$`)),
        expect.stringMatching(
          new RegExp(`<@${admin.id}> /staff stats member:<@${member.id}> \\(this month\\) → done$`),
        ),
        expect.stringMatching(new RegExp(`<@${admin.id}> /case lookup player:SpeedyRacer_09 \\(2391045817\\) → done$`)),
      ]);
      const actions = await shown('action');
      expect(actions[0]).toMatch(/\/feed default channel:<#\d+> → done$/);
      expect(actions.join('\n')).not.toMatch(/\/case lookup|\/staff stats|\/export/);
      expect(await shown()).toHaveLength(lookups.length + actions.length);

      // The table itself: whom each lookup was about, and nothing of what the record answered.
      const rows = await db.query<{ action: string; kind: string; subject: string | null }>(
        `SELECT action, kind, subject FROM audit WHERE kind = 'lookup' ORDER BY id`,
      );
      expect(rows.map((row) => [row.kind, row.subject])).toEqual([
        ['lookup', `player:${created.target.robloxId}`],
        ['lookup', `member:${member.id}`],
        ['lookup', null],
      ]);
      const stored = JSON.stringify(await db.query('SELECT * FROM audit'));
      expect(stored).not.toContain(created.reason);
      expect(stored).not.toContain(created.evidence);
    },
  );

  it.skipIf(!available)('shows nothing of a lookup whose audit line cannot be written', async () => {
    db = await create();
    h = await startAdminHarness({ storeUrl: db.url });
    const harness = h;
    const webhookId = await registerEveryEvent(harness);
    await harness.service.deliver(webhookId, {
      event: 'case.created',
      data: { case: { ...created, createdAt: Date.now() } },
    });
    await harness.discord.waitFor(
      async () =>
        (await harness.bot.store.of(recordModule).caseTotals(harness.guild.id, created.target.robloxId)).length > 0,
      10_000,
      'the case recorded',
    );
    await db.exec(REFUSE_AUDIT_LINES[name]);

    const answer = await harness.run('case', 'lookup', [commandOption.string('player', created.target.robloxId)]);
    expect(answer.ephemeral).toBe(true);
    expect(answer.text).toBe('Something went wrong on our side; it has been logged.');
    expect(answer.outcome.reply?.embeds ?? []).toEqual([]);
    expect(JSON.stringify(answer.outcome.reply)).not.toContain(created.reason);
  });
});

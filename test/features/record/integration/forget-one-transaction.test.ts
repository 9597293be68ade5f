import { afterEach, describe, expect, it } from 'vitest';

import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import type { Store } from '../../../../src/store/store.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const GUILD = '222222222222222222';
const created = SAMPLE_DELIVERIES['case.created'];
const PLAYER = created.data.case.target;

/** The SQL that makes the database refuse any change of an audit line, as a failing disk or constraint would. */
const REFUSE_AUDIT_UPDATES = {
  sqlite: `CREATE TRIGGER refuse_audit BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
  postgres: `
    CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
    CREATE TRIGGER refuse_audit BEFORE UPDATE ON audit FOR EACH ROW EXECUTE FUNCTION refuse_audit();`,
};

/**
 * Forgetting a person is one transaction over every module's rows: when one module's part fails (the audit log's,
 * after the record's ran), nothing is forgotten, on either engine.
 */
describe.each(STORE_ENGINES)('forgetting a person, one transaction, on $name', ({ name, available, create }) => {
  let db: EngineDatabase | undefined;
  let store: Store | undefined;

  afterEach(async () => {
    await store?.close();
    await db?.dispose();
  });

  it.skipIf(!available)("forgets nothing when one module's part fails", async () => {
    db = await create();
    store = await db.open();
    await store.deliveries.accept({
      hookId: 'hook-1',
      guildId: GUILD,
      deliveryId: 'd-1',
      event: 'case.created',
      rawBody: JSON.stringify(created),
      receivedAt: Date.now(),
    });
    await store.of(recordModule).recordPending(10);
    await store.of(auditModule).append({
      guildId: GUILD,
      userId: '400000000000000001',
      action: `/case lookup player:${PLAYER.name} (${PLAYER.robloxId})`,
      result: 'done',
      detail: null,
      at: Date.now(),
      kind: 'lookup',
      subject: `player:${PLAYER.robloxId}`,
    });
    const person = { guildId: GUILD, kind: 'player' as const, id: PLAYER.robloxId, name: PLAYER.name };
    const kept = await store.people.keptAbout(person);
    expect(kept.map((rows) => rows.what)).toEqual(
      expect.arrayContaining(['cases about the player', "the player's name", 'lookups about the player']),
    );

    await db.exec(name === 'SQLite' ? REFUSE_AUDIT_UPDATES.sqlite : REFUSE_AUDIT_UPDATES.postgres);
    await expect(store.people.forget(person)).rejects.toThrow(/disk full/);

    expect(await store.people.keptAbout(person)).toEqual(kept);
    expect(await store.of(recordModule).findPlayer(GUILD, PLAYER.robloxId)).toEqual({
      playerId: PLAYER.robloxId,
      name: PLAYER.name,
    });
  });
});

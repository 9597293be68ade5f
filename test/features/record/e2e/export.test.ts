import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { chatInputCommand, type InteractionOutcome } from '../../../../fakes/discord/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { commandOption, registerEveryEvent, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { downloadFiles } from '../../../helpers/downloaded-files.js';

const created = SAMPLE_DELIVERIES['case.created'].data.case;
const MINUTE = 60_000;

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, CR, LF and doubled quotes; CRLF ends a row. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += char;
  }
  if (field !== '' || row.length > 0)
    throw new Error(`the CSV does not end with CRLF: ${JSON.stringify(text.slice(-40))}`);
  return rows;
}

/** A case.created numbered `number`, made `minutesAgo` minutes before now. */
function caseOf(number: number, fields: { reason?: string; targetName?: string; minutesAgo?: number } = {}) {
  return {
    event: 'case.created' as const,
    data: {
      case: {
        ...created,
        number,
        reason: fields.reason ?? `reason ${number}`,
        target: { robloxId: `23910458${number}`, name: fields.targetName ?? `Player_${number}` },
        createdAt: Date.now() - (fields.minutesAgo ?? number) * MINUTE,
      },
    },
  };
}

const HEADER = [
  'server',
  'number',
  'type',
  'target_id',
  'target_name',
  'moderator_id',
  'moderator_name',
  'reason',
  'created',
  'voided',
  'voided_by',
];

/** /export end to end: deliveries through the intake, the record's writer, the CSV files of the reply. */
describe('/export', () => {
  let h: AdminHarness;
  let webhookId = '';

  beforeEach(async () => {
    h = await startAdminHarness();
    webhookId = await registerEveryEvent(h);
  });

  afterEach(async () => {
    await h.stop();
  });

  const recorded = (count: number) =>
    h.discord.waitFor(
      async () =>
        (await h.bot.store.of(recordModule).leaderboard(h.guild.id, 'cases', { from: 0, to: Number.MAX_SAFE_INTEGER }))
          .map((standing) => standing.value)
          .reduce((sum, value) => sum + value, 0) === count,
      10_000,
      `${count} cases recorded`,
    );

  /** /export as an admin (the fake's interaction says how big a file may be), waiting for every message. */
  async function exportAs(options: ReturnType<typeof commandOption.string>[], attachmentLimit?: number) {
    const draft = chatInputCommand({
      name: 'export',
      options,
      as: 'admin',
      guildId: h.guild.id,
      ...(attachmentLimit === undefined ? {} : { overrides: { attachment_size_limit: attachmentLimit } }),
    });
    return h.discord.dispatchInteraction(draft, { timeoutMs: 15_000 });
  }

  /** Every file the answers carry, in order, with its bytes as the CDN serves them. */
  async function filesOf(outcome: InteractionOutcome, messages: number) {
    await h.discord.waitFor(
      () => h.discord.interactionResponses(outcome.id).filter((r) => r.kind !== 'callback').length >= messages,
      10_000,
      `${messages} messages of the export`,
    );
    const answers = h.discord.interactionResponses(outcome.id).filter((r) => r.kind !== 'callback');
    expect(answers).toHaveLength(messages);
    const files = [];
    for (const answer of answers) {
      expect(answer.message?.ephemeral).toBe(true);
      for (const file of await downloadFiles(answer.message)) {
        files.push({ name: file.name, size: file.size, text: file.bytes.toString('utf8') });
      }
    }
    return { answers, files };
  }

  it('answers an empty period in plain words, and refuses a member', async () => {
    const empty = await h.run('export', undefined, [commandOption.string('kind', 'cases')]);
    expect(empty.ephemeral).toBe(true);
    expect(empty.text).toBe('No cases this month.');
    expect(empty.outcome.reply?.api.attachments).toEqual([]);
    const shifts = await h.run('export', undefined, [
      commandOption.string('kind', 'shifts'),
      commandOption.string('period', '30-days'),
    ]);
    expect(shifts.text).toBe('No shifts in the last 30 days.');

    const refused = await h.run('export', undefined, [commandOption.string('kind', 'cases')], 'member');
    expect(refused.ephemeral).toBe(true);
    expect(refused.text).toBe('You need the Manage Server permission to use this command.');

    // Not a read: every export is in the audit log, refusals too.
    const audit = (await h.run('audit')).outcome.reply?.embeds[0]?.description ?? '';
    const [admin, member] = [h.discord.users.admin.id, h.discord.users.member.id];
    expect(audit.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(new RegExp(`<@${member}> /export kind:cases → refused: You need the Manage Server`)),
      expect.stringMatching(new RegExp(`<@${admin}> /export kind:shifts period:30-days → done$`)),
      expect.stringMatching(new RegExp(`<@${admin}> /export kind:cases → done$`)),
    ]);
    expect(h.discord.violations).toEqual([]);
  });

  it("exports the period's cases as one RFC 4180 file that parses back to what was delivered", async () => {
    const tricky = [
      caseOf(1, { reason: 'griefing, then "spawn killing"', targetName: 'Zoë_ünïcødé 🚗' }),
      caseOf(2, { reason: 'line one\nline two\r\nline three' }),
      caseOf(3, { reason: '=HYPERLINK("http://evil.test","click")' }),
      caseOf(4, { reason: '-1+2', targetName: '@everyone' }),
      caseOf(5),
    ];
    for (const delivery of tricky) await h.service.deliver(webhookId, delivery);
    // Made 40 days ago: never this month.
    await h.service.deliver(webhookId, caseOf(6, { minutesAgo: 40 * 24 * 60 }));
    await recorded(6);

    // The last 30 days, not this month: the test may run in a month's first minutes.
    const outcome = await exportAs([commandOption.string('kind', 'cases'), commandOption.string('period', '30-days')]);
    const { answers, files } = await filesOf(outcome, 1);
    expect(answers[0]?.message?.content).toBe(
      'Cases in the last 30 days: 5 rows in cases.csv. Ids are text (open those columns as text in a spreadsheet); times are UTC.',
    );
    expect(files.map((file) => file.name)).toEqual(['cases.csv']);
    const [file] = files;
    expect(file?.size).toBe(Buffer.byteLength(file?.text ?? ''));
    // Ids are quoted, always: a spreadsheet that reads them as numbers loses their last digits.
    expect(file?.text).toContain(`,"${created.moderator.discordId}",`);
    const [header, ...rows] = parseCsv(file?.text ?? '');
    expect(header).toEqual(HEADER);
    const server = rows[0]?.[0] ?? '';
    expect(server).not.toBe('');
    // In key order: made earliest first (case 5, five minutes ago, … case 1).
    expect(rows).toEqual(
      [...tricky]
        .reverse()
        .map(({ data: { case: c } }) => [
          server,
          String(c.number),
          'warn',
          c.target.robloxId,
          c.target.name.startsWith('@') ? `'${c.target.name}` : c.target.name,
          c.moderator.discordId,
          c.moderator.name,
          /^[=+\-@]/.test(c.reason) ? `'${c.reason}` : c.reason,
          new Date(c.createdAt).toISOString(),
          '',
          '',
        ]),
    );

    const all = await exportAs([commandOption.string('kind', 'cases'), commandOption.string('period', 'all')]);
    const everything = await filesOf(all, 1);
    expect(parseCsv(everything.files[0]?.text ?? '').map((row) => row[1])).toEqual([
      'number',
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
    ]);
    expect(h.discord.violations).toEqual([]);
  });

  it("sends the files that do not fit one message's 10 MiB in ephemeral follow-ups, every row once", async () => {
    // 80,000 cases (about 12 MiB of CSV), written straight into the bot's SQLite file as the record's writer would.
    const db = new Database(h.storeFile);
    const insert = db.prepare(
      `INSERT INTO record_case (guild_id, server, number, at, type, target_id, target_name, moderator_id,
                                moderator_name, reason, created_at) VALUES (?, '4821337', ?, ?, 'warn', ?, ?, ?, 'Mira', ?, ?)`,
    );
    const at = Date.now() - 60 * MINUTE;
    db.transaction(() => {
      for (let number = 1; number <= 80_000; number += 1) {
        insert.run(
          h.guild.id,
          number,
          at + number,
          String(2_391_045_817 + number),
          `Player_${number}`,
          created.moderator.discordId,
          `Fail roleplay, case ${number}: ramming other players at spawn`,
          at + number,
        );
      }
    })();
    db.close();

    // Files of at most 4 MiB: two fit the 10 MiB a message carries, a third does not (discord.js reads every file
    // of a message into memory): the rest go in follow-ups.
    const limit = 4 * 1024 * 1024;
    const outcome = await exportAs(
      [commandOption.string('kind', 'cases'), commandOption.string('period', 'all')],
      limit,
    );
    const { answers, files } = await filesOf(outcome, 2);
    expect(answers.map((answer) => answer.kind)).toEqual(['edit', 'followup']);
    expect(answers.map((answer) => answer.message?.api.attachments.length)).toEqual([2, files.length - 2]);
    expect(answers[0]?.message?.content).toMatch(/^Cases in the record: 80,000 rows in \d files \(cases-1\.csv to /);
    expect(answers[1]?.message?.content).toBe(
      `${files
        .slice(2)
        .map((file) => file.name)
        .join(', ')} (2 of 2)`,
    );
    expect(files.map((file) => file.name)).toEqual(files.map((_, index) => `cases-${index + 1}.csv`));
    let next = 1;
    for (const file of files) {
      expect(file.size).toBeLessThanOrEqual(limit);
      const [header, ...rows] = parseCsv(file.text);
      expect(header).toEqual(HEADER);
      for (const row of rows) expect(row[1]).toBe(String(next++));
    }
    expect(next).toBe(80_001);
    expect(h.discord.violations).toEqual([]);
  });

  it("splits an export into files within the server's attachment limit, and says how to narrow one that is too big", async () => {
    for (let number = 1; number <= 12; number += 1) await h.service.deliver(webhookId, caseOf(number));
    await recorded(12);

    // About three rows a file: four files, one message (at most 10 files on a message).
    const small = await exportAs([commandOption.string('kind', 'cases'), commandOption.string('period', 'all')], 600);
    const split = await filesOf(small, 1);
    expect(split.files.length).toBeGreaterThan(1);
    expect(split.files.map((file) => file.name)).toEqual(split.files.map((_, index) => `cases-${index + 1}.csv`));
    expect(split.answers[0]?.message?.content).toMatch(
      new RegExp(
        `^Cases in the record: 12 rows in ${split.files.length} files \\(cases-1\\.csv to cases-${split.files.length}\\.csv\\), each with the header row\\.`,
      ),
    );
    const numbers: string[] = [];
    for (const file of split.files) {
      expect(file.size).toBeLessThanOrEqual(600);
      const [header, ...rows] = parseCsv(file.text);
      expect(header).toEqual(HEADER);
      numbers.push(...rows.map((row) => row[1] ?? ''));
    }
    expect(numbers).toEqual(['12', '11', '10', '9', '8', '7', '6', '5', '4', '3', '2', '1']);

    // One row a file: twelve files, more than an export may take. Nothing is sent, and the answer says why.
    const tooBig = await exportAs([commandOption.string('kind', 'cases'), commandOption.string('period', 'all')], 300);
    const refused = await filesOf(tooBig, 1);
    expect(refused.files).toEqual([]);
    expect(refused.answers[0]?.message?.content).toBe(
      'The cases in the record do not fit in 10 files of 300 bytes (the most the bot puts in one file in this server), so nothing was sent. Export a shorter period, such as `period:this-week` or `period:today`.',
    );
    expect(h.discord.violations).toEqual([]);
  });
});

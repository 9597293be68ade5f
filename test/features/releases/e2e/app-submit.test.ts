import { InteractionResponseType } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { modalSubmit } from '../../../../fakes/discord/index.js';
import { FAKE_OPTIONS } from '../../../../fakes/service/index.js';
import { commandOption, PORTAL_FIELDS, startAppHarness, type Answer, type AppHarness } from './app-harness.js';

let h: AppHarness;

beforeEach(async () => {
  h = await startAppHarness();
});

afterEach(async () => {
  try {
    expect(h.discord.violations).toEqual([]);
    expect(h.discord.unhandledRequests).toEqual([]);
    const logs = h.logs.text();
    expect(h.typedKeys.filter((key) => logs.includes(key))).toEqual([]);
  } finally {
    await h.stop();
  }
});

const BUILD = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x08, 0x08, 0x00, 0xff, 0x00, 0x0a, 0x0d]);

function attach(filename: string, bytes: Uint8Array, size?: number): string {
  return h.discord.addAttachment({ filename, bytes, ...(size === undefined ? {} : { size }) }).id;
}

function submit(
  appId: number,
  version: string,
  extra: ReturnType<typeof commandOption.string>[] = [],
  as: 'admin' | 'member' = 'admin',
) {
  return h.run(
    'app',
    'submit',
    [
      commandOption.string('app', String(appId)),
      commandOption.string('version', version),
      commandOption.string('whats-new', `Changes in ${version}`),
      ...extra,
    ],
    as,
  );
}

const buttonsOf = (answer: Answer) =>
  (answer.message?.components as Array<{ components: Array<{ label: string }> }> | undefined)?.flatMap((row) =>
    row.components.map((button) => button.label),
  ) ?? [];

describe('/app submit', () => {
  it('previews; Cancel sends nothing; Submit uploads the exact bytes, then submits JSON with the token and the prefilled fields', async () => {
    const { appId } = await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);
    await h.run('app', 'watch', [
      commandOption.string('app', String(appId)),
      commandOption.channel('channel', h.channel('releases')),
    ]);
    await h.settle();
    expect(h.messages('releases')).toHaveLength(1);

    const cancelled = await submit(appId, '1.1', [
      commandOption.attachment('file', attach('pricewise-1.1.zip', BUILD)),
    ]);
    expect(cancelled.ephemeral).toBe(true);
    expect(cancelled.text).toMatch(
      /^Check this submission\. Submit uploads the file, then sends the submission; Cancel sends nothing\. Submissions left this hour: 10 of 10\.$/,
    );
    expect(buttonsOf(cancelled)).toEqual(['Submit', 'Cancel']);
    expect(cancelled.message?.embeds[0]?.title).toBe('Pricewise 1.1');
    expect(JSON.stringify(cancelled.message?.embeds[0]?.fields)).toContain('pricewise-1.1.zip · 14 bytes');
    const cancel = await h.click(cancelled, 'Cancel');
    expect(cancel.outcome.callback.type).toBe(InteractionResponseType.UpdateMessage);
    expect(cancel.text).toBe('Cancelled: nothing was sent to the service.');
    expect(buttonsOf(cancel)).toEqual([]);
    expect(h.service.uploads()).toEqual([]);
    expect(h.service.submissions()).toEqual([]);
    // The preview is answered: a second click finds nothing to send.
    expect((await h.click(cancelled, 'Submit')).text).toBe('This preview was already answered: nothing more was sent.');

    const preview = await submit(appId, '1.1', [
      commandOption.attachment('file', attach('pricewise-1.1.zip', BUILD)),
      commandOption.string('repo-ref', 'v1.1.0'),
    ]);
    const sent = await h.click(preview, 'Submit');
    expect(sent.text).toBe(
      `**Pricewise 1.1** was sent for review. 9 submissions left this hour. Its release card follows in <#${h.channel('releases')}>.`,
    );
    const [upload] = h.service.uploads();
    expect(upload?.name).toBe('pricewise-1.1.zip');
    expect(upload?.bytes.equals(BUILD)).toBe(true);
    const [submission] = h.service.submissions();
    expect(submission?.path).toBe(`/apps/${appId}/submissions`);
    expect(submission?.body).toEqual({
      ...PORTAL_FIELDS,
      name: 'Pricewise',
      version: '1.1',
      whatsNew: 'Changes in 1.1',
      repoRef: 'v1.1.0',
      files: [upload?.token],
    });
    const uploadAt = h.service.requests.findIndex((request) => request.path === '/api/v1/uploads');
    const submitAt = h.service.requests.findIndex((request) => request.path.endsWith('/submissions'));
    expect(uploadAt).toBeGreaterThan(-1);
    expect(submitAt).toBeGreaterThan(uploadAt);

    // The new version's card follows at once.
    await h.settle();
    const cards = h.messages('releases');
    expect(cards).toHaveLength(2);
    expect(cards[1]?.embeds[0]?.title).toBe('Pricewise 1.1');
  });

  it('refuses the 11th submission of an hour here, before any call', async () => {
    const { appId } = await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);
    for (let i = 1; i <= 10; i += 1) {
      const sent = await h.click(await submit(appId, `1.${i}`), 'Submit');
      expect(sent.text).toMatch(
        new RegExp(`^\\*\\*Pricewise 1\\.${i}\\*\\* was sent for review\\. ${10 - i} submissions? left this hour\\.`),
      );
      h.service.setVersionState(appId, `1.${i}`, 'approved');
    }
    expect(h.service.submissions()).toHaveLength(10);
    const before = h.service.requests.length;
    const eleventh = await submit(appId, '1.11');
    expect(eleventh.text).toBe(
      'This server has sent 10 submissions in the last hour, the most the service allows: try again later.',
    );
    expect(h.service.requests).toHaveLength(before);
    expect(h.service.submissions()).toHaveLength(10);

    // An hour later, the places are free again.
    await h.advance(60 * 60_000);
    expect((await submit(appId, '1.11')).text).toMatch(/Submissions left this hour: 10 of 10\.$/);
  });

  it('refuses a member without the release-manager role before any call, and lets the role through', async () => {
    const { appId } = await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);
    const before = h.service.requests.length;
    const refused = await submit(appId, '1.1', [], 'member');
    expect(refused.text).toBe(
      'You need the Manage Server permission to send or withdraw versions (an admin can name a release-manager role with /app managers).',
    );
    expect((await h.run('app', 'withdraw', [commandOption.string('app', String(appId))], 'member')).text).toMatch(
      /^You need the Manage Server permission/,
    );
    expect(h.service.requests).toHaveLength(before);

    const managers = h.role('Release Managers');
    expect((await h.run('app', 'managers', [commandOption.role('role', managers)], 'member')).text).toBe(
      'You need the Manage Server permission to use this command.',
    );
    expect((await h.run('app', 'managers', [commandOption.role('role', managers)])).text).toMatch(
      new RegExp(`^Members with <@&${managers}> may now send versions`),
    );
    expect((await submit(appId, '1.1', [], 'member')).text).toBe(
      `You need the <@&${managers}> role or the Manage Server permission to send or withdraw versions.`,
    );
    h.discord.grantRole(h.guild.id, h.discord.users.member.id, managers);
    const preview = await submit(appId, '1.1', [], 'member');
    expect(buttonsOf(preview)).toEqual(['Submit', 'Cancel']);
    // Only the one who made the preview answers it.
    expect((await h.click(preview, 'Submit', 'admin')).text).toBe(
      'Only the member who made this preview can answer it.',
    );
    expect((await h.click(preview, 'Submit', 'member')).text).toMatch(/^\*\*Pricewise 1\.1\*\* was sent for review\./);
  });

  it('sends once when Submit is clicked twice at once; the second click is told it was already answered', async () => {
    const { appId } = await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);
    const preview = await submit(appId, '1.1', [commandOption.attachment('file', attach('pricewise-1.1.zip', BUILD))]);
    const answers = await Promise.all([h.click(preview, 'Submit'), h.click(preview, 'Submit')]);
    const texts = answers.map((answer) => answer.text).sort();
    expect(texts).toEqual([
      '**Pricewise 1.1** was sent for review. 9 submissions left this hour. To follow its review in a channel: /app watch app:' +
        String(appId) +
        '.',
      'This preview was already answered: nothing more was sent.',
    ]);
    expect(h.service.uploads()).toHaveLength(1);
    expect(h.service.requests.filter((request) => request.path.endsWith('/submissions'))).toHaveLength(1);
  });

  it('uploads a file under its base name, and refuses a kind the service does not take before fetching it', async () => {
    const { appId } = await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);
    const pathed = await submit(appId, '1.1', [
      commandOption.attachment('file', attach('C:\\builds\\pricewise-1.1.zip', BUILD)),
    ]);
    expect(JSON.stringify(pathed.message?.embeds[0]?.fields)).toContain('pricewise-1.1.zip · 14 bytes');
    await h.click(pathed, 'Submit');
    expect(h.service.uploads().map((upload) => upload.name)).toEqual(['pricewise-1.1.zip']);

    h.service.setVersionState(appId, '1.1', 'approved');
    const fetchesBefore = h.discord.requests.filter((request) => request.path.includes('/attachments/')).length;
    const refused = await submit(appId, '1.2', [commandOption.attachment('file', attach('setup.exe', BUILD))]);
    expect(refused.text).toBe(
      'The file setup.exe is not one the service takes: attach a .zip, .tar.gz or .tar archive, or a single code file (such as .js, .ts, .lua or .py). Nothing was sent.',
    );
    expect(h.discord.requests.filter((request) => request.path.includes('/attachments/'))).toHaveLength(fetchesBefore);
    expect(h.service.uploads()).toHaveLength(1);
  });

  it('checks the submission before any call that sends: description, options, file size, what Discord delivered', async () => {
    const { key, appId } = await h.seedApp('Pricewise', [
      { version: '1.0', status: 'approved', submission: { description: 'Too short.', category: 'cooking' } },
    ]);
    const problems = await submit(appId, '1.1');
    expect(problems.text).toBe(
      'This submission would be refused, so nothing was sent. Fix it in the developer portal (the other fields come from the latest version) or in the options:\n' +
        '• description: must be at least 50 characters\n' +
        '• category: cooking is not one of games, tools, social, education, utilities',
    );
    const good = h.service.addApp(key, {
      name: 'Good',
      versions: [{ version: '1.0', status: 'approved', submission: PORTAL_FIELDS }],
    });
    const huge = await submit(good, '1.1', [
      commandOption.attachment('file', attach('huge.zip', BUILD, 26 * 1024 * 1024)),
    ]);
    expect(huge.text).toBe(
      "The file huge.zip is 26.0 MB, over the service's upload limit of 25.0 MB: nothing was sent.",
    );
    const cut = await submit(good, '1.1', [
      commandOption.attachment('file', attach('cut.zip', BUILD, BUILD.length + 5)),
    ]);
    expect(cut.text).toBe(
      'The file cut.zip arrived with 14 bytes where Discord announced 19: nothing was sent. Attach it again and retry.',
    );
    const waiting = h.service.addApp(key, {
      name: 'Busy',
      versions: [{ version: '2.0', status: 'in_review', submission: PORTAL_FIELDS }],
    });
    expect((await submit(waiting, '2.1')).text).toMatch(
      /^Busy 2\.0 is still waiting for review: withdraw it with \/app withdraw first/,
    );
    expect(h.service.uploads()).toEqual([]);
    expect(h.service.submissions()).toEqual([]);
  });
});

describe('/app submit against version records that show no fields', () => {
  const TYPED = {
    tagline: 'Prices at a glance',
    description: 'A calculator for in-game economies: prices, taxes and shop margins, with a history.',
  };

  /** The dialog's submit, from the prompt message the Fill in button sits on. */
  const submitDialog = async (opened: Answer, prompt: Answer, fields: Record<string, string | string[]>) => {
    const customId = (opened.outcome.callback.data as { custom_id: string }).custom_id;
    const message = prompt.message;
    if (!message) throw new Error('no prompt to submit the dialog from');
    const outcome = await h.discord.dispatchInteraction(
      modalSubmit({ customId, fields, layout: 'label', guildId: h.guild.id, overrides: { message: message.api } }),
      { timeoutMs: 15_000 },
    );
    return { outcome, text: outcome.reply?.content ?? '', ephemeral: true, message: outcome.reply };
  };
  const inputsOf = (opened: Answer) =>
    (
      opened.outcome.callback.data as {
        components: Array<{ component: { custom_id: string; value?: string; options?: Array<{ value: string }> } }>;
      }
    ).components.map(({ component }) => ({
      id: component.custom_id,
      ...(component.value === undefined ? {} : { value: component.value }),
      ...(component.options === undefined ? {} : { choices: component.options.map((option) => option.value) }),
    }));

  it('asks for what neither the record nor an earlier submission gives, checks it, sends it, and keeps it for the next version', async () => {
    await h.stop();
    h = await startAppHarness({ minimalVersions: true });
    const { appId } = await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);

    const prompt = await submit(appId, '1.1', [commandOption.attachment('file', attach('pricewise-1.1.zip', BUILD))]);
    expect(prompt.text).toBe(
      "**Pricewise 1.1** needs fields that the service's record of the app does not show and that were not sent from here before: tagline, description, category (and, if you like, ageRating, data). " +
        'Fill them in to see the submission before anything is sent; Cancel sends nothing.',
    );
    expect(buttonsOf(prompt)).toEqual(['Fill in', 'Cancel']);
    expect(h.discord.requests.filter((request) => request.path.includes('/attachments/'))).toEqual([]);

    const opened = await h.click(prompt, 'Fill in');
    expect(opened.outcome.callback.type).toBe(InteractionResponseType.Modal);
    expect(inputsOf(opened)).toEqual([
      { id: 'tagline' },
      { id: 'description' },
      { id: 'category', choices: FAKE_OPTIONS.categories },
      { id: 'ageRating', choices: FAKE_OPTIONS.ageRatings },
      { id: 'data', choices: FAKE_OPTIONS.dataKinds },
    ]);
    // Another release manager cannot fill in someone else's submission.
    expect((await h.click(prompt, 'Fill in', 'member')).text).toBe(
      'Only the member who made this preview can answer it.',
    );

    const refused = await submitDialog(opened, prompt, {
      ...TYPED,
      description: 'Too short.',
      category: ['tools'],
      ageRating: [],
      data: ['none'],
    });
    expect(refused.text).toBe(
      'Nothing was sent: this submission would be refused. Correct it with Fill in (it keeps what you typed):\n' +
        '• description: must be at least 50 characters',
    );
    expect(buttonsOf(refused)).toEqual(['Fill in', 'Cancel']);
    const reopened = await h.click(refused, 'Fill in');
    expect(inputsOf(reopened).slice(0, 2)).toEqual([
      { id: 'tagline', value: TYPED.tagline },
      { id: 'description', value: 'Too short.' },
    ]);

    const preview = await submitDialog(reopened, refused, {
      ...TYPED,
      category: ['tools'],
      ageRating: [],
      data: ['none'],
    });
    expect(preview.message?.embeds[0]?.title).toBe('Pricewise 1.1');
    expect(buttonsOf(preview)).toEqual(['Submit', 'Cancel']);
    expect(h.service.requests.filter((request) => request.method === 'POST')).toEqual([]);
    const sent = await h.click(preview, 'Submit');
    expect(sent.text).toMatch(/^\*\*Pricewise 1\.1\*\* was sent for review\./);
    const [first] = h.service.submissions();
    expect(first?.body).toEqual({
      name: 'Pricewise',
      ...TYPED,
      category: 'tools',
      data: ['none'],
      version: '1.1',
      whatsNew: 'Changes in 1.1',
      files: [h.service.uploads()[0]?.token],
    });

    // After a restart, the next version takes what was sent over: no dialog.
    h.service.setVersionState(appId, '1.1', 'approved');
    await h.restart();
    const next = await submit(appId, '1.2', [commandOption.attachment('file', attach('pricewise-1.2.zip', BUILD))]);
    expect(buttonsOf(next)).toEqual(['Submit', 'Cancel']);
    expect(JSON.stringify(next.message?.embeds[0]?.fields)).toContain('Kept from the last submission sent from here');
    await h.click(next, 'Submit');
    expect(h.service.submissions()).toHaveLength(2);
    expect(h.service.submissions()[1]?.body).toEqual({
      ...first?.body,
      version: '1.2',
      whatsNew: 'Changes in 1.2',
      files: [h.service.uploads()[1]?.token],
    });
  });

  it("takes a new version's fields from what /app new sent for the app", async () => {
    await h.stop();
    h = await startAppHarness({ minimalVersions: true });
    await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);
    const details = Object.fromEntries(
      Object.entries(PORTAL_FIELDS).filter(([field]) => !['tagline', 'description'].includes(field)),
    );
    const opened = await h.run('app', 'new', [
      commandOption.attachment('details', attach('details.json', Buffer.from(JSON.stringify(details)))),
      commandOption.attachment('file', attach('ledger.zip', BUILD)),
    ]);
    const customId = (opened.outcome.callback.data as { custom_id: string }).custom_id;
    const fields = {
      name: 'Ledger',
      tagline: 'Shop books for your server',
      description: 'Keeps the books of every in-game shop: sales, stock and the taxes owed, per day.',
      version: '1.0.0',
      whatsNew: 'First release',
    };
    const preview = await h.discord.dispatchInteraction(
      modalSubmit({ customId, fields, layout: 'label', guildId: h.guild.id }),
      { timeoutMs: 15_000 },
    );
    await h.click({ outcome: preview, text: '', ephemeral: true, message: preview.reply }, 'Submit');
    const [created] = h.service.submissions();
    if (!created) throw new Error('/app new sent nothing');
    h.service.setVersionState(created.appId, '1.0.0', 'approved');

    const next = await submit(created.appId, '1.1', [
      commandOption.attachment('file', attach('ledger-1.1.zip', BUILD)),
    ]);
    expect(buttonsOf(next)).toEqual(['Submit', 'Cancel']);
    await h.click(next, 'Submit');
    expect(h.service.submissions()[1]?.body).toEqual({
      ...details,
      ...fields,
      version: '1.1',
      whatsNew: 'Changes in 1.1',
      files: [h.service.uploads()[1]?.token],
    });
  });
});

describe('/app withdraw', () => {
  it('needs its confirmation, then withdraws and the card says who withdrew it', async () => {
    const { appId } = await h.seedApp('Pricewise', [{ version: '1.4', status: 'in_review' }]);
    await h.run('app', 'watch', [
      commandOption.string('app', String(appId)),
      commandOption.channel('channel', h.channel('releases')),
      commandOption.role('role', h.role('Developers')),
    ]);
    await h.settle();
    const [card] = h.messages('releases');

    const kept = await h.run('app', 'withdraw', [commandOption.string('app', String(appId))]);
    expect(kept.text).toMatch(/^Withdraw \*\*Pricewise 1\.4\*\* \(`` in_review ``\) from review\?/);
    expect(buttonsOf(kept)).toEqual(['Withdraw', 'Keep it']);
    expect(h.service.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    expect((await h.click(kept, 'Keep it')).text).toBe('Nothing was withdrawn.');
    expect(h.service.versionState(appId, '1.4')).toBe('in_review');

    const confirm = await h.run('app', 'withdraw', [commandOption.string('app', String(appId))]);
    const done = await h.click(confirm, 'Withdraw');
    expect(done.text).toBe('**Pricewise 1.4** was withdrawn from review. Its release card says who withdrew it.');
    expect(h.service.versionState(appId, '1.4')).toBe('withdrawn');
    await h.settle();
    await h.advance(60_000);
    const [edited, outcome] = h.messages('releases');
    expect(edited?.id).toBe(card?.id);
    const admin = h.discord.users.admin.id;
    expect(JSON.stringify(edited?.embeds[0]?.fields)).toContain(`Withdrawn by <@${admin}>`);
    expect(JSON.stringify(edited?.embeds[0]?.fields)).toContain('`` withdrawn ``');
    expect(outcome?.content).toContain(`left review: \`\` withdrawn \`\``);
    expect(outcome?.content).toContain(`(withdrawn by <@${admin}>)`);
    expect(outcome?.allowed_mentions).toEqual({ parse: [], roles: [h.role('Developers')] });

    expect((await h.run('app', 'withdraw', [commandOption.string('app', String(appId))])).text).toBe(
      'No version of **Pricewise** is waiting for review: nothing to withdraw.',
    );
  });
});

describe('/app new', () => {
  it('takes the fields a dialog cannot hold from a JSON attachment, previews, and submits a first app', async () => {
    await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);
    // Everything but what the dialog asks for.
    const details = Object.fromEntries(
      Object.entries(PORTAL_FIELDS).filter(([field]) => !['tagline', 'description'].includes(field)),
    );
    const detailsId = attach('details.json', Buffer.from(JSON.stringify(details)));
    const opened = await h.run('app', 'new', [
      commandOption.attachment('details', detailsId),
      commandOption.attachment('file', attach('ledger.tar.gz', BUILD)),
    ]);
    expect(opened.outcome.callback.type).toBe(InteractionResponseType.Modal);
    const customId = (opened.outcome.callback.data as { custom_id: string }).custom_id;
    const fields = {
      name: 'Ledger',
      tagline: 'Shop books for your server',
      description: 'Keeps the books of every in-game shop: sales, stock and the taxes owed, per day.',
      version: '1.0.0',
      whatsNew: 'First release',
    };
    const preview = await h.discord.dispatchInteraction(
      modalSubmit({ customId, fields, layout: 'label', guildId: h.guild.id }),
      { timeoutMs: 15_000 },
    );
    expect(preview.reply?.embeds[0]?.title).toBe('New app: Ledger');
    const sent = await h.click({ outcome: preview, text: '', ephemeral: true, message: preview.reply }, 'Submit');
    expect(sent.text).toMatch(
      /^\*\*Ledger 1\.0\.0\*\* was sent for review\. 9 submissions left this hour\. To follow its review in a channel: \/app watch app:\d+\.$/,
    );
    const [submission] = h.service.submissions();
    expect(submission?.path).toBe('/apps');
    expect(submission?.body).toEqual({ ...details, ...fields, files: [h.service.uploads()[0]?.token] });
  });

  it("lets only the member who opened the dialog submit it; another release manager's try uses nothing up", async () => {
    await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);
    const managers = h.role('Release Managers');
    await h.run('app', 'managers', [commandOption.role('role', managers)]);
    h.discord.grantRole(h.guild.id, h.discord.users.member.id, managers);
    const details = Object.fromEntries(
      Object.entries(PORTAL_FIELDS).filter(([field]) => !['tagline', 'description'].includes(field)),
    );
    const opened = await h.run('app', 'new', [
      commandOption.attachment('details', attach('details.json', Buffer.from(JSON.stringify(details)))),
    ]);
    const customId = (opened.outcome.callback.data as { custom_id: string }).custom_id;
    const fields = {
      name: 'Ledger',
      tagline: 'Shop books for your server',
      description: 'Keeps the books of every in-game shop: sales, stock and the taxes owed, per day.',
      version: '1.0.0',
      whatsNew: 'First release',
    };
    const other = await h.discord.dispatchInteraction(
      modalSubmit({
        customId,
        fields: { ...fields, name: 'Not Ledger' },
        layout: 'label',
        as: 'member',
        guildId: h.guild.id,
      }),
      { timeoutMs: 15_000 },
    );
    expect(other.reply?.content).toBe('Only the member who opened this dialog can submit it.');
    expect(other.reply?.embeds).toEqual([]);
    const own = await h.discord.dispatchInteraction(
      modalSubmit({ customId, fields, layout: 'label', guildId: h.guild.id }),
      { timeoutMs: 15_000 },
    );
    expect(own.reply?.embeds[0]?.title).toBe('New app: Ledger');
    expect(h.service.submissions()).toEqual([]);
  });

  it('refuses a details file that is not a JSON object or holds the dialog fields', async () => {
    await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);
    for (const [text, problem] of [
      ['{ nope', 'The details file is not valid JSON. Nothing was sent.'],
      ['[1]', 'The details file must hold one JSON object. Nothing was sent.'],
      [
        '{"name":"x","files":[]}',
        'The details file must not hold name, files: the dialog asks for those, and files come from the file option. Nothing was sent.',
      ],
    ] as const) {
      const opened = await h.run('app', 'new', [
        commandOption.attachment('details', attach('details.json', Buffer.from(text))),
      ]);
      const customId = (opened.outcome.callback.data as { custom_id: string }).custom_id;
      const fields = { name: 'A', tagline: 'B', description: 'd'.repeat(60), version: '1', whatsNew: 'w' };
      const answer = await h.discord.dispatchInteraction(
        modalSubmit({ customId, fields, layout: 'label', guildId: h.guild.id }),
      );
      expect(answer.reply?.content).toBe(problem);
    }
    expect(h.service.submissions()).toEqual([]);
  });
});

describe('reading the account', () => {
  it('lists apps, shows versions with their states, lists unused uploads with time left, pages the store', async () => {
    const { key, appId } = await h.seedApp('Pricewise', [
      { version: '1.0', status: 'approved' },
      { version: '1.1', status: 'in_review' },
    ]);
    for (let i = 1; i <= 11; i += 1) {
      h.service.addApp(key, {
        name: `Store App ${String(i).padStart(2, '0')}`,
        versions: [{ version: '1.0', status: 'approved', submission: PORTAL_FIELDS }],
      });
    }
    const listed = await h.run('app', 'list', [], 'member');
    expect(listed.text.split('\n')[0]).toBe('**Apps of Lantern Studio** (12)');
    expect(listed.text).toMatch(
      /• \*\*Pricewise\*\* \(app \d+\) · waiting for review: 1\\\.1 `` in_review `` since <t:\d+:R>/,
    );

    const shown = await h.run('app', 'show', [commandOption.string('app', 'pricewise')], 'member');
    expect(shown.text.split('\n')).toEqual([
      `**Pricewise** (app ${appId})`,
      expect.stringMatching(/^Waiting for review: \*\*1\\\.1\*\* `` in_review `` since <t:\d+:R>$/) as string,
      'Versions (2):',
      expect.stringMatching(/^• 1\\\.1 · `` in_review `` since <t:\d+:R>$/) as string,
      expect.stringMatching(/^• 1\\\.0 · `` approved `` since <t:\d+:R>$/) as string,
      'Not watched: /app watch posts a release card per version.',
    ]);

    // A submission the service refuses after its file was uploaded leaves an unused upload behind.
    const up = h.service.addApp(key, {
      name: 'Up',
      versions: [{ version: '1', status: 'approved', submission: PORTAL_FIELDS }],
    });
    const preview = await submit(up, '2', [commandOption.attachment('file', attach('build.zip', BUILD))]);
    h.service.addVersion(up, { version: '1.5', status: 'submitted' });
    const failed = await h.click(preview, 'Submit');
    expect(failed.text).toMatch(
      /^Could not submit the version: the service refused the request \(HTTP 409, pending_exists: .*\)\. Nothing from this preview is waiting for review\.$/,
    );
    expect(buttonsOf(failed)).toEqual([]);
    await h.advance(60 * 60_000);
    const uploads = await h.run('app', 'uploads');
    expect(uploads.text).toMatch(
      /^\*\*Unused uploads\*\* \(1\);.*\n• `` build\.zip `` · 14 bytes · 23 h 00 min left \(deleted <t:\d+:R>\)$/,
    );
    // The refused submission did not count against the 10 an hour.
    expect((await submit(appId + 1, '1.1')).text).toMatch(/Submissions left this hour: 10 of 10\.$/);

    const page1 = await h.run('store', undefined, [], 'member');
    expect(page1.ephemeral).toBe(true);
    expect(page1.message?.embeds[0]?.footer?.text).toBe('Page 1 of 2 · 13 apps');
    const page2 = await h.click(page1, 'Next', 'member');
    expect(page2.message?.embeds[0]?.footer?.text).toBe('Page 2 of 2 · 13 apps');
    // Pricewise, eleven store apps and Up, in the store's order: the last three on page 2.
    expect(page2.message?.embeds[0]?.description).toContain('**Store App 11**');
    const searched = await h.run('store', undefined, [
      commandOption.string('search', 'pricewise'),
      commandOption.boolean('public', true),
    ]);
    expect(searched.ephemeral).toBe(false);
    expect(searched.message?.embeds[0]?.footer?.text).toBe('Page 1 of 1 · 1 app');
    expect(h.service.requests.filter((request) => request.path === '/api/v1/store')).toHaveLength(1);
  });
});

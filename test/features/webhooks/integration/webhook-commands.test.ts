import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startFakeService, type FakeService } from '../../../../fakes/service/index.js';
import { startBot, type RunningBot } from '../../../../src/bot.js';
import { webhookCommand } from '../../../../src/features/webhooks/commands/webhook.js';
import { saveServerKey } from '../../../../src/features/webhooks/server-key.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { testConfig } from '../../../helpers/test-config.js';
import { contextFor, stubChatInput, type AnyCommandDeps } from '../../../integration/command-stubs.js';

const GUILD = '123456789012345678';

let service: FakeService;
let bot: RunningBot;
let ctx: AnyCommandDeps;
let logs: ReturnType<typeof captureLogs>;
/** Set to false to cut the network between the service and the bot. */
let reachable = true;

beforeEach(async () => {
  reachable = true;
  service = await startFakeService({
    allowHttp: true,
    fetch: (input, init) => (reachable ? fetch(input, init) : Promise.reject(new TypeError('fetch failed'))),
  });
  logs = captureLogs();
  bot = await startBot({
    config: testConfig({ SERVICE_URL: service.baseUrl, SECRET_KEY: 'test-secret-key-0123456789' }),
    logger: logs.logger,
    host: '127.0.0.1',
    feed: false,
  });
  ctx = contextFor(bot, { serviceUrl: service.baseUrl, logger: logs.logger });
});

afterEach(async () => {
  await bot.stop();
  await service.close();
});

/** Runs /webhook <subcommand> as an admin and returns its one reply. */
async function run(subcommand: string, strings: Record<string, string> = {}): Promise<string> {
  const { interaction, answers } = stubChatInput({ guildId: GUILD, subcommand, strings });
  await webhookCommand.execute(interaction, ctx);
  expect(answers.replies).toHaveLength(1);
  return answers.replies[0] ?? '';
}

async function runFailing(subcommand: string, strings: Record<string, string> = {}): Promise<string> {
  const { interaction } = stubChatInput({ guildId: GUILD, subcommand, strings });
  const error = await webhookCommand.execute(interaction, ctx).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toMatchObject({ name: 'UserFacingError' });
  return (error as Error).message;
}

describe('/webhook commands against the fake service and the real intake', () => {
  it('asks for /setup first when no key is set', async () => {
    expect(await runFailing('register', { events: 'all' })).toBe('No server key yet: run /setup first.');
    expect(service.requests).toHaveLength(0);
  });

  it('registers, tests (ping verified), lists and removes a webhook; the secret is stored sealed', async () => {
    const key = service.issueKey();
    await saveServerKey(ctx, GUILD, key);

    const registered = await run('register', { events: 'all' });
    const [created] = service.webhooks();
    expect(created).toBeDefined();
    expect(registered).toBe(
      `Webhook \`${created?.id}\` registered for all events. Next: /webhook test to prove deliveries arrive, and /feed default or /feed set to choose channels.`,
    );
    const [hook] = await bot.store.hooks.listForGuild(GUILD);
    expect(hook?.hookId).toMatch(/^[0-9a-f]{32}$/);
    expect(created?.url).toBe(`${bot.http.url}/webhooks/${hook?.hookId}`);
    expect(hook?.secret).not.toContain(service.secretOf(created?.id ?? ''));

    expect(await run('test')).toMatch(new RegExp(`^Ping received and verified in \\d+ ms: webhook \`${created?.id}\``));
    expect(await run('list')).toContain(`\`${created?.id}\` · all events · on (as of <t:`);
    expect(await run('remove', { webhook: hook?.hookId ?? '' })).toContain('The service documents no delete');
    expect(await bot.store.hooks.listForGuild(GUILD)).toEqual([]);
  });

  it('refuses a fourth webhook before calling the service', async () => {
    await saveServerKey(ctx, GUILD, service.issueKey());
    for (const events of ['modcall', 'case.created', 'shift.started']) await run('register', { events });
    const calls = service.requests.length;
    expect(await runFailing('register', { events: 'all' })).toMatch(/already has 3 webhooks.*\/webhook remove/);
    expect(service.requests).toHaveLength(calls);
    expect(await runFailing('test')).toBe('This server has 3 webhooks: choose one in the webhook option.');
  });

  it('says what to check when the ping does not arrive, or arrives with a wrong signature', async () => {
    await saveServerKey(ctx, GUILD, service.issueKey());
    await run('register', { events: 'modcall' });
    reachable = false;
    expect(await run('test')).toContain('No ping reached this bot: the service could not deliver it');

    reachable = true;
    const [hook] = await bot.store.hooks.listForGuild(GUILD);
    if (!hook) throw new Error('no hook');
    await bot.store.hooks.save({ ...hook, secret: bot.secrets.seal('an-old-secret') });
    expect(await run('test')).toContain('its signature does not match');
    expect(await run('list')).toContain('1 refused (last: signature mismatch)');
  });

  it('switches a webhook the service turned off back on', async () => {
    await saveServerKey(ctx, GUILD, service.issueKey());
    await run('register', { events: 'all' });
    const [created] = service.webhooks();
    service.disableWebhook(created?.id ?? '');
    expect(await run('enable')).toBe(
      `Webhook \`${created?.id}\` is switched on again. Run /webhook test to check that deliveries arrive.`,
    );
    expect(service.isEnabled(created?.id ?? '')).toBe(true);
  });

  it('gives the clear messages for replaced, revoked and rate-limited keys, never the key', async () => {
    const key = service.issueKey();
    await saveServerKey(ctx, GUILD, key);
    await run('register', { events: 'all' });

    service.rateLimitNext(key, 30);
    expect(await runFailing('test')).toBe(
      'Could not ask the service for a test ping: the service is rate-limiting us: try again in 30 s.',
    );

    const newKey = service.replaceKey(key);
    expect(await runFailing('enable')).toBe(
      'Could not switch the webhook on: the server key was replaced or revoked: run /setup with the new key.',
    );

    await saveServerKey(ctx, GUILD, newKey);
    service.revokeAccess(newKey);
    expect(await runFailing('test')).toMatch(
      /^Could not ask the service for a test ping: developer access was revoked/,
    );
    expect(logs.text()).not.toContain(key);
    expect(logs.text()).not.toContain(newKey);
  });
});

import { ComponentType } from 'discord.js';

import {
  buttonClick,
  chatInputCommand,
  commandOption,
  modalSubmit,
  startFakeDiscord,
  type AddedGuild,
  type CommandOptionValue,
  type FakeDiscord,
  type FakeMessage,
  type InteractionOutcome,
  type Invoker,
} from '../../../../fakes/discord/index.js';
import { startFakeService, type FakeService, type VersionInput } from '../../../../fakes/service/index.js';
import { startBot, type RunningBot } from '../../../../src/bot.js';
import { COMMANDS } from '../../../../src/commands/index.js';
import { registerCommands } from '../../../../src/discord/register-commands.js';
import type { FeatureTimings } from '../../../../src/features/index.js';
import type { ReleasePoller } from '../../../../src/features/releases/release-poller.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';
import { e2eConfig } from '../../../helpers/test-config.js';

export { commandOption };

/** What a member read in answer to one interaction. */
export interface Answer {
  outcome: InteractionOutcome;
  text: string;
  ephemeral: boolean;
  /** The message the answer lives in, buttons included. */
  message: FakeMessage | undefined;
}

/** Submission fields of a seeded version: what /app submit takes over from the latest version. */
export const PORTAL_FIELDS = {
  tagline: 'Prices, taxes and margins at a glance',
  description: 'A calculator for in-game economies: prices, taxes and shop margins, with a history of every change.',
  category: 'tools',
  appUrl: 'https://pricewise.example.com',
  repoUrl: 'https://github.com/lantern/pricewise',
  repoAccess: 'public',
  framework: 'react',
  buildNotes: '',
  license: 'MIT',
  screenshots: ['https://pricewise.example.com/shot1.png'],
  supportUrl: 'https://pricewise.example.com/support',
  privacyUrl: 'https://pricewise.example.com/privacy',
  data: ['none'],
  dataNote: '',
  external: '',
  ageRating: 'everyone',
  money: 'free',
  team: '',
  testNotes: 'Log in with the demo account.',
  confirmOwn: true,
  confirmRules: true,
  confirmSame: true,
};

/**
 * The real bot (startBot) with a fake clock and the timers that go with it, logged in to the fake Discord,
 * talking to the fake service, whose clock is the same fake clock; a SQLite store in a temporary folder, so
 * it can be restarted on the same file.
 */
export interface AppHarness {
  discord: FakeDiscord;
  service: FakeService;
  bot: RunningBot;
  poller: ReleasePoller;
  guild: AddedGuild;
  time: ManualTime;
  logs: ReturnType<typeof captureLogs>;
  /** Every key typed into a dialog, to check none of them leaks. */
  typedKeys: string[];
  channel(name: 'releases' | 'general' | 'other'): string;
  role(name: 'Developers' | 'Release Managers'): string;
  run(name: string, subcommand?: string, options?: readonly CommandOptionValue[], as?: Invoker): Promise<Answer>;
  /** Clicks the button labelled `label` on the message of `answer`. */
  click(answer: Answer, label: string, as?: Invoker): Promise<Answer>;
  /** /app key, then the dialog's submit with `key`. */
  setKey(key: string, as?: Invoker): Promise<Answer>;
  /** Issues a developer key, sets it, adds one app with the given versions; returns the key and the app id. */
  seedApp(name: string, versions: readonly VersionInput[], key?: string): Promise<{ key: string; appId: number }>;
  /** Moves the fake clock (bot and service) forward, letting every poll that falls due run. */
  advance(ms: number): Promise<void>;
  /** Waits for the poll that a command asked for (pollSoon) to finish. */
  settle(): Promise<void>;
  /** Visible messages of a channel. */
  messages(name: 'releases' | 'general' | 'other'): FakeMessage[];
  /** The bot's SQLite file. */
  storeFile: string;
  /** Cuts (false) or restores (true) the network between the service and the bot. */
  setReachable(reachable: boolean): void;
  /** PATCHes Discord received for one message. */
  editsOf(message: { id: string }): number;
  /** Stops the bot (the store, Discord and the service stay). */
  stopBot(): Promise<void>;
  /** Stops the bot if it runs and starts it again on the same store, Discord and service. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * @param options.messagesPerFiveSeconds the fake Discord's per-channel limit (Discord's is 5): a test of the
 *   service's budget that posts 20 cards at once raises it, so it does not wait on Discord in real time.
 * @param options.minimalVersions the fake service's version records carry only id, version and state.
 */
export async function startAppHarness(
  options: {
    messagesPerFiveSeconds?: number;
    healthTimings?: FeatureTimings['health'];
    minimalVersions?: boolean;
  } = {},
): Promise<AppHarness> {
  const dir = makeTempDir();
  const logs = captureLogs('debug');
  const time = new ManualTime();
  let reachable = true;
  const service = await startFakeService({
    allowHttp: true,
    clock: time.now,
    minimalVersions: options.minimalVersions ?? false,
    fetch: (input, init) => (reachable ? fetch(input, init) : Promise.reject(new TypeError('fetch failed'))),
  });
  const discord = await startFakeDiscord({
    messageRateLimit: { limit: options.messagesPerFiveSeconds ?? 5, windowMs: 5_000 },
  });
  const guild = discord.addGuild({
    name: 'Lantern Studio',
    channels: [{ name: 'general' }, { name: 'releases' }, { name: 'other' }],
    roles: [
      { name: 'Developers', mentionable: true },
      { name: 'Release Managers', mentionable: false },
    ],
  });

  // A restart listens on the same port: the webhooks registered with the fake service keep reaching it.
  let port = 0;
  const boot = async (): Promise<{ bot: RunningBot; poller: ReleasePoller }> => {
    const started = await startBot({
      config: e2eConfig({
        port,
        discordApiUrl: discord.apiUrl,
        botToken: discord.botToken,
        serviceUrl: service.baseUrl,
        storeFile: `${dir.path}/bot.sqlite`,
      }),
      logger: logs.logger,
      host: '127.0.0.1',
      clock: time.now,
      timers: time,
      webhookBaseUrl: (intakeUrl) => intakeUrl,
      ...(options.healthTimings ? { timings: { health: options.healthTimings } } : {}),
    });
    const client = started.discord;
    const poller = started.apps.poller;
    if (!client || !poller) throw new Error('the bot started without Discord');
    await discord.waitFor(() => client.isReady() && client.guilds.cache.has(guild.id), 10_000, 'the bot ready');
    await poller.settled();
    port = started.http.port;
    return { bot: started, poller };
  };

  let { bot, poller } = await boot();
  let running = true;
  if (!bot.discord) throw new Error('the bot started without Discord');
  // As the host would with `npm run deploy-commands -- --guild <id>`.
  await registerCommands(bot.discord.rest, COMMANDS, { guildId: guild.id });

  const answer = (outcome: InteractionOutcome): Answer => ({
    outcome,
    text: outcome.reply?.content ?? '',
    ephemeral: outcome.reply?.ephemeral ?? false,
    message: outcome.reply,
  });

  const harness: AppHarness = {
    discord,
    service,
    get bot() {
      return bot;
    },
    get poller() {
      return poller;
    },
    guild,
    time,
    logs,
    typedKeys: [],
    channel(name) {
      const id = guild.channels[name];
      if (!id) throw new Error(`no channel ${name}`);
      return id;
    },
    role(name) {
      const id = guild.roles[name];
      if (!id) throw new Error(`no role ${name}`);
      return id;
    },
    async run(name, subcommand, options = [], as = 'admin') {
      const draft = chatInputCommand({ name, ...(subcommand ? { subcommand } : {}), options, as, guildId: guild.id });
      return answer(await discord.dispatchInteraction(draft, { timeoutMs: 15_000 }));
    },
    async click(previous, label, as = 'admin') {
      const message = previous.message;
      if (!message) throw new Error(`no message to click ${label} on`);
      const button = findButton(message, label);
      return answer(
        await discord.dispatchInteraction(buttonClick({ customId: button, message, as, guildId: guild.id }), {
          timeoutMs: 15_000,
        }),
      );
    },
    async setKey(key, as = 'admin') {
      harness.typedKeys.push(key);
      const opened = await discord.dispatchInteraction(
        chatInputCommand({ name: 'app', subcommand: 'key', as, guildId: guild.id }),
      );
      const customId = (opened.callback.data as { custom_id?: string } | undefined)?.custom_id;
      if (customId === undefined) return answer(opened);
      return answer(
        await discord.dispatchInteraction(
          modalSubmit({ customId, fields: { key }, layout: 'label', as, guildId: guild.id }),
          { timeoutMs: 15_000 },
        ),
      );
    },
    async seedApp(name, versions, key) {
      const developerKey = key ?? service.issueDeveloperKey('Lantern Studio');
      if (key === undefined) {
        const saved = await harness.setKey(developerKey);
        if (!saved.text.startsWith('Developer key saved')) throw new Error(`/app key: ${saved.text}`);
      }
      const appId = service.addApp(developerKey, {
        name,
        versions: versions.map((version) => ({ ...version, submission: { ...PORTAL_FIELDS, ...version.submission } })),
      });
      return { key: developerKey, appId };
    },
    advance: (ms) =>
      time.advance(ms, async () => {
        await poller.settled();
        await bot.health?.settled();
      }),
    settle: () => poller.settled(),
    messages: (name) => discord.messages(harness.channel(name)),
    storeFile: `${dir.path}/bot.sqlite`,
    setReachable(next) {
      reachable = next;
    },
    editsOf: (message) =>
      discord.requests.filter(
        (request) => request.method === 'PATCH' && request.path.endsWith(`/messages/${message.id}`),
      ).length,
    async stopBot() {
      if (running) await bot.stop();
      running = false;
    },
    async restart() {
      await harness.stopBot();
      ({ bot, poller } = await boot());
      running = true;
    },
    async stop() {
      await harness.stopBot();
      await discord.close();
      await service.close();
      dir.remove();
    },
  };
  return harness;
}

/** The custom id of the button labelled `label` on a message. */
function findButton(message: FakeMessage, label: string): string {
  for (const row of message.components as Array<{ components?: Array<Record<string, unknown>> }>) {
    for (const component of row.components ?? []) {
      if (component['type'] === ComponentType.Button && component['label'] === label) {
        return String(component['custom_id']);
      }
    }
  }
  throw new Error(`no button "${label}" on message ${message.id}: ${JSON.stringify(message.components)}`);
}

import { ChannelType, PermissionFlagsBits } from 'discord.js';

import {
  chatInputCommand,
  commandOption,
  modalSubmit,
  startFakeDiscord,
  type AddedGuild,
  type CommandOptionValue,
  type FakeDiscord,
  type InteractionOutcome,
  type Invoker,
  type RoleSpec,
} from '../../fakes/discord/index.js';
import { startFakeService, type FakeService } from '../../fakes/service/index.js';
import { startBot, type RunningBot } from '../../src/bot.js';
import { COMMANDS } from '../../src/commands/index.js';
import { registerCommands } from '../../src/discord/register-commands.js';
import type { FeatureTimings } from '../../src/features/index.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { e2eConfig } from '../helpers/test-config.js';

export { commandOption };

/** The channels of the test guild; `locked` denies the bot Embed Links. */
export const CHANNEL_NAMES = [
  'general',
  'cases',
  'modcalls',
  'sessions',
  'shifts',
  'locked',
  'news',
  'no-history',
] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

/** What an admin (or a member) read in answer to one interaction. */
export interface Answer {
  outcome: InteractionOutcome;
  /** The reply's text in its final state (after the edit of a deferred reply). */
  text: string;
  ephemeral: boolean;
}

/**
 * The real bot from startBot, logged in to the fake Discord, talking to the fake service, with its intake on
 * 127.0.0.1 (the fake service delivers there over http, which PUBLIC_URL cannot be).
 */
export interface AdminHarness {
  discord: FakeDiscord;
  service: FakeService;
  bot: RunningBot;
  guild: AddedGuild;
  logs: ReturnType<typeof captureLogs>;
  /** The bot's SQLite file. */
  storeFile: string;
  /** Every key typed into the /setup modal, to check none of them leaks anywhere. */
  typedKeys: string[];
  channel(name: ChannelName): string;
  /** Cuts (false) or restores (true) the network between the service and the bot. */
  setReachable(reachable: boolean): void;
  /** Runs a slash command and waits for its final answer. */
  run(name: string, subcommand?: string, options?: readonly CommandOptionValue[], as?: Invoker): Promise<Answer>;
  /** /setup, then the modal submit with `key`; returns both answers. */
  setup(key: string, as?: Invoker): Promise<{ modal: Answer; submit: Answer }>;
  /** Stops the bot, runs `whileStopped`, and starts it again on the same store, Discord, service and port. */
  restart(whileStopped?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/** What a test may change of the harness's guild. */
export interface AdminHarnessOptions {
  /** What the bot's role grants (the fake's default: View Channel, Send Messages, Embed Links, Read History). */
  botPermissions?: bigint;
  /** Roles besides Moderators and Quiet. */
  roles?: readonly RoleSpec[];
  /** The features' timings (shortened by a test). */
  timings?: FeatureTimings;
  /** A store of its own (a PostgreSQL database's URL) instead of the SQLite file. */
  storeUrl?: string;
  /** The bot's clock (a test moves it, across a restart, to days later). */
  clock?: () => number;
}

export async function startAdminHarness(options: AdminHarnessOptions = {}): Promise<AdminHarness> {
  const dir = makeTempDir();
  const logs = captureLogs('debug');
  let reachable = true;
  const service = await startFakeService({
    allowHttp: true,
    fetch: (input, init) => (reachable ? fetch(input, init) : Promise.reject(new TypeError('fetch failed'))),
  });
  const discord = await startFakeDiscord();
  const guild = discord.addGuild({
    name: 'Game Community',
    channels: [
      ...CHANNEL_NAMES.filter((name) => name !== 'locked' && name !== 'news' && name !== 'no-history').map((name) => ({
        name,
      })),
      { name: 'locked', denyBot: PermissionFlagsBits.EmbedLinks },
      { name: 'news', type: ChannelType.GuildAnnouncement },
      { name: 'no-history', denyBot: PermissionFlagsBits.ReadMessageHistory },
    ],
    roles: [{ name: 'Moderators', mentionable: true }, { name: 'Quiet', mentionable: false }, ...(options.roles ?? [])],
    ...(options.botPermissions === undefined ? {} : { botPermissions: options.botPermissions }),
  });
  // A restart listens on the same port: the webhooks registered with the fake service keep reaching it.
  let port = 0;
  const boot = async (): Promise<RunningBot> => {
    const config = e2eConfig({
      port,
      discordApiUrl: discord.apiUrl,
      botToken: discord.botToken,
      serviceUrl: service.baseUrl,
      storeFile: `${dir.path}/bot.sqlite`,
    });
    const started = await startBot({
      config: options.storeUrl === undefined ? config : { ...config, STORE_URL: options.storeUrl },
      logger: logs.logger,
      host: '127.0.0.1',
      webhookBaseUrl: (intakeUrl) => intakeUrl,
      feed: { backoff: { baseMs: 20, capMs: 200 } },
      ...(options.timings ? { timings: options.timings } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    const client = started.discord;
    if (!client) throw new Error('the bot started without Discord');
    // Ready as /healthz says it; on SQLite the process's client holds the guild, on PostgreSQL its shard's client
    // (whose ready waited for every guild of the shard).
    await discord.waitFor(
      () => started.discordHealth.state === 'ready' && (!client.isReady() || client.guilds.cache.has(guild.id)),
      10_000,
      'the bot ready in the guild',
    );
    port = started.http.port;
    return started;
  };
  let bot = await boot();
  let running = true;
  // As the host would with `npm run deploy-commands -- --guild <id>`.
  if (!bot.discord) throw new Error('the bot started without Discord');
  await registerCommands(bot.discord.rest, COMMANDS, { guildId: guild.id });

  const answer = (outcome: InteractionOutcome): Answer => ({
    outcome,
    text: outcome.reply?.content ?? '',
    ephemeral: outcome.reply?.ephemeral ?? false,
  });

  const harness: AdminHarness = {
    discord,
    service,
    get bot() {
      return bot;
    },
    guild,
    logs,
    storeFile: `${dir.path}/bot.sqlite`,
    typedKeys: [],
    channel(name) {
      const id = guild.channels[name];
      if (!id) throw new Error(`no channel ${name}`);
      return id;
    },
    setReachable(next) {
      reachable = next;
    },
    async run(name, subcommand, options = [], as = 'admin') {
      const draft = chatInputCommand({ name, ...(subcommand ? { subcommand } : {}), options, as, guildId: guild.id });
      return answer(await discord.dispatchInteraction(draft, { timeoutMs: 15_000 }));
    },
    async setup(key, as = 'admin') {
      harness.typedKeys.push(key);
      const modal = answer(
        await discord.dispatchInteraction(chatInputCommand({ name: 'setup', as, guildId: guild.id })),
      );
      const data = modal.outcome.callback.data as { custom_id?: string } | undefined;
      const submitDraft = modalSubmit({
        customId: data?.custom_id ?? 'setup:server-key',
        fields: { key },
        layout: 'label',
        as,
        guildId: guild.id,
      });
      const submit = answer(await discord.dispatchInteraction(submitDraft));
      return { modal, submit };
    },
    async restart(whileStopped) {
      if (running) await bot.stop();
      running = false;
      await whileStopped?.();
      bot = await boot();
      running = true;
    },
    async stop() {
      if (running) await bot.stop();
      running = false;
      await discord.close();
      await service.close();
      dir.remove();
    },
  };
  return harness;
}

/**
 * An admin sets the server key and registers a webhook for every event, as the record's and duty's tests start;
 * resolves with the webhook's id (the fake service's, which its deliveries name).
 */
export async function registerEveryEvent(h: AdminHarness): Promise<string> {
  await h.setup(h.service.issueKey());
  const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
  return /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
}

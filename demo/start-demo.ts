import { randomBytes, randomInt } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import pretty from 'pino-pretty';

import {
  DEFAULT_BOT_PERMISSIONS,
  startFakeDiscord,
  type FakeDiscord,
  type FakeMessage,
} from '../fakes/discord/index.js';
import { startFakeService } from '../fakes/service/index.js';
import { parseConfig } from '../src/base/config.js';
import { createLogger } from '../src/base/logger.js';
import { startBot } from '../src/bot.js';
import { COMMANDS } from '../src/commands/index.js';
import { registerCommands } from '../src/discord/register-commands.js';
import { digestModule } from '../src/features/digest/store/digest-module.js';
import { askTheRecord } from './ask-record.js';
import { claimFirstModcall } from './claim-modcall.js';
import { DemoDirectory } from './demo-directory.js';
import {
  DEMO_APP,
  DEMO_DEFAULT_CHANNEL,
  DEMO_FEED_CHANNELS,
  DEMO_GUILD,
  DEMO_RELEASE_CHANNEL,
  DEMO_ROUTES,
} from './demo-guild.js';
import { playReleases } from './play-releases.js';
import { playStories } from './play-stories.js';
import { startPreviewServer, type PreviewSource } from './preview/preview-server.js';
import type { PreviewMessage } from './preview/render-message.js';
import { setUpDemoGuild } from './set-up-guild.js';
import { setUpReleaseCards } from './set-up-releases.js';
import { showDutyAndDigest } from './show-duty.js';
import { showOversight } from './show-oversight.js';
import { showStaffLifecycle, STAFF_LIFECYCLE_ROLES } from './show-staff-lifecycle.js';

export interface DemoOptions {
  /** Pause between two events of the stream. */
  intervalMs: number;
  /**
   * Where the store (demo.sqlite) and the simulator's files (webhook-url, webhook-secret) go; kept after the
   * demo. Default: a temporary folder, removed at the end.
   */
  stateDir?: string;
  /** The preview's port on 127.0.0.1; 0 for any free one. */
  previewPort: number;
  /** The bot's own log level (its logs go to stderr); default warn. */
  logLevel: string;
  say: (line: string) => void;
}

export interface RunningDemo {
  previewUrl: string;
  intakeUrl: string;
  /** Stops everything the demo started, in reverse order; safe to call twice. */
  stop(): Promise<void>;
}

/** How often the demo's release poller looks, and the shortest pause between two moves of a review. */
const RELEASE_POLL_MS = 2_000;
const RELEASE_STEP_MS = 2_500;

/** Files of the store; removed at the start, since the previous run's fake Discord (and its ids) is gone. */
const STORE_FILE = 'demo.sqlite';

/** The preview's panel of the admin's answers from the community record (ephemeral in Discord). */
const REPLIES_PANEL = 'only-you-can-see-these';
/** The latest session's thread (its log, then its after-action report), drawn as a channel of its own. */
const THREAD_PANEL = 'thread-latest-session';

function toPreviewMessage(discord: FakeDiscord) {
  return (message: ReturnType<FakeDiscord['messages']>[number]): PreviewMessage => ({
    id: message.id,
    content: message.content,
    embeds: message.embeds,
    timestamp: message.api.timestamp,
    edited: message.api.edited_timestamp,
    author: {
      name: message.api.author.global_name ?? message.api.author.username,
      bot: message.api.author.id === discord.botUserId,
    },
    buttons: buttonLabels(message.components),
    replyTo: replyTarget(discord, message.body['message_reference']),
    files: Object.fromEntries(message.api.attachments.map((file) => [file.filename, file.url])),
  });
}

/** The labels of a message's buttons (a modcall card's Claim and Resolve). */
function buttonLabels(components: readonly unknown[]): string[] {
  return (components as Array<{ components?: Array<{ label?: unknown }> }>).flatMap((row) =>
    (row.components ?? []).flatMap((component) => (typeof component.label === 'string' ? [component.label] : [])),
  );
}

/** What a reply refers to, as Discord shows it above the reply: the original's first embed title or text. */
function replyTarget(discord: FakeDiscord, reference: unknown): string | undefined {
  const messageId = (reference as { message_id?: unknown } | undefined)?.message_id;
  if (typeof messageId !== 'string') return undefined;
  const original = discord.allMessages().find((message) => message.id === messageId);
  if (!original) return 'a message that was deleted';
  return original.embeds[0]?.title ?? original.content.split('\n')[0] ?? '';
}

/**
 * The offline demo: the fake service, the fake Discord and the real bot (real discord.js client, real intake,
 * its own SQLite store) in one process, on 127.0.0.1 only, with no credentials. The guild is set up through
 * the same slash commands an admin uses, then a realistic stream plays until {@link RunningDemo.stop}.
 */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const { say } = options;
  const cleanups: Array<() => Promise<void> | void> = [];
  const runCleanups = async () => {
    while (cleanups.length > 0) {
      const cleanup = cleanups.pop();
      try {
        await cleanup?.();
      } catch (error) {
        say(`(while stopping: ${error instanceof Error ? error.message : String(error)})`);
      }
    }
  };

  try {
    let dir: string;
    if (options.stateDir === undefined) {
      dir = mkdtempSync(join(tmpdir(), 'bridge-demo-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    } else {
      dir = resolve(options.stateDir);
      mkdirSync(dir, { recursive: true });
      for (const file of readdirSync(dir)) if (file.startsWith(STORE_FILE)) rmSync(join(dir, file), { force: true });
    }

    const service = await startFakeService({ allowHttp: true });
    cleanups.push(() => service.close());
    say(`fake service (webhooks, signed deliveries) on ${service.baseUrl}`);

    const discord = await startFakeDiscord({ botUsername: 'Feed Bridge' });
    cleanups.push(() => discord.close());
    const guild = discord.addGuild({
      name: DEMO_GUILD.name,
      channels: DEMO_GUILD.channels.map((name) => ({ name })),
      // Manage Roles: the bot gives and takes the staff's rank roles (/staff promote).
      botPermissions: DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles,
      roles: [
        { name: DEMO_GUILD.moderatorRole.name, mentionable: true, color: DEMO_GUILD.moderatorRole.colour },
        { name: DEMO_GUILD.developerRole.name, mentionable: true, color: DEMO_GUILD.developerRole.colour },
        ...STAFF_LIFECYCLE_ROLES,
      ],
    });
    say(
      `fake Discord (REST and gateway) on ${discord.apiUrl}, guild "${guild.name}": ${DEMO_GUILD.channels.map((name) => `#${name}`).join(' ')}`,
    );

    // Through the real config schema: the same checks as `npm start`. PUBLIC_URL must be https; the service is
    // told the intake's own http://127.0.0.1 address instead (webhookBaseUrl below), which only the demo may do.
    const parsed = parseConfig({
      DISCORD_TOKEN: discord.botToken,
      DISCORD_API_URL: discord.apiUrl,
      PUBLIC_URL: 'https://demo.invalid',
      PORT: '0',
      STORE_URL: `sqlite://${join(dir, STORE_FILE)}`,
      SERVICE_URL: service.baseUrl,
      SECRET_KEY: randomBytes(24).toString('base64url'),
      LOG_LEVEL: options.logLevel,
    });
    if (!parsed.ok) throw new Error(`demo configuration: ${parsed.problems.join('; ')}`);
    const logger = createLogger(
      parsed.config.LOG_LEVEL,
      pretty({
        destination: 2,
        sync: true,
        colorize: process.stderr.isTTY,
        ignore: 'pid,hostname',
        messageFormat: 'bot: {msg}',
      }),
    );

    const bot = await startBot({
      config: parsed.config,
      logger,
      host: '127.0.0.1',
      webhookBaseUrl: (intakeUrl) => intakeUrl,
      // Release cards follow the review within seconds here, not a minute: a change in GET /apps brings the
      // app's versions at once, and the key's budget still holds polling to 30 requests a minute.
      // The weekly digest is looked for every 5 s, not every minute, so the demo's shows soon after it is due.
      timings: {
        releasePolling: { cycleMs: RELEASE_POLL_MS, pendingEveryMs: 60_000, idleEveryMs: 60_000 },
        digest: { checkEveryMs: 5_000 },
      },
    });
    cleanups.push(() => bot.stop());
    const client = bot.discord;
    if (!client) throw new Error('the bot started without Discord');
    say(`bot intake (the webhook receiver) on ${bot.http.url}, store ${join(dir, STORE_FILE)}`);
    await discord.waitFor(
      () => client.isReady() && client.guilds.cache.has(guild.id),
      15_000,
      'the bot ready in the demo guild',
    );
    say(`bot logged in to the fake Discord as ${client.user?.username ?? 'the bot'}, feed worker started`);
    await registerCommands(client.rest, COMMANDS, { guildId: guild.id });
    say(`slash commands registered in "${guild.name}" (as npm run deploy-commands -- --guild does)`);

    const directory = new DemoDirectory(discord, guild, {
      [DEMO_GUILD.moderatorRole.name]: DEMO_GUILD.moderatorRole.colour,
      [DEMO_GUILD.developerRole.name]: DEMO_GUILD.developerRole.colour,
      ...Object.fromEntries(STAFF_LIFECYCLE_ROLES.map((role) => [role.name, role.color ?? 0])),
    });
    const feedChannelIds = new Set(DEMO_FEED_CHANNELS.map((name) => guild.channels[name]));
    const toMessage = toPreviewMessage(discord);
    // A thread started from a session's card takes the card's id: the newest card with a thread is the one shown.
    const latestSessionThread = () =>
      discord
        .messages(guild.channels['sessions'] ?? '')
        .map((card) => card.id)
        .filter((id) => discord.channel(id) !== undefined)
        .at(-1);
    // The admin's ephemeral answers from the record (/case lookup, /leaderboard): a panel of their own.
    const replies: FakeMessage[] = [];
    const source: PreviewSource = {
      guildName: guild.name,
      channels: () => [
        ...guild.channelIds.map((id) => ({
          id,
          name: directory.channelName(id) ?? id,
          routed: feedChannelIds.has(id),
        })),
        { id: THREAD_PANEL, name: THREAD_PANEL, routed: false },
        { id: REPLIES_PANEL, name: REPLIES_PANEL, routed: false },
      ],
      messages: (channelId) => {
        if (channelId === REPLIES_PANEL) return replies.map(toMessage);
        const shown = channelId === THREAD_PANEL ? latestSessionThread() : channelId;
        return shown === undefined ? [] : discord.messages(shown).map(toMessage);
      },
      directory,
    };
    const previewOptions = {
      source,
      status: () => ({ intakeUrl: bot.http.url }),
      imageOrigin: new URL(discord.apiUrl).origin,
    };
    const preview = await startPreviewServer({ ...previewOptions, port: options.previewPort }).catch(
      (error: unknown) => {
        if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
        say(`port ${options.previewPort} is taken: the preview takes a free one`);
        return startPreviewServer({ ...previewOptions, port: 0 });
      },
    );
    cleanups.push(() => preview.close());
    say(`preview: ${preview.url}  <- open it in a browser to watch the channels live`);

    say(`an admin sets up "${guild.name}" with slash commands (dispatched through the fake gateway):`);
    const setup = await setUpDemoGuild({
      discord,
      service,
      guild,
      say: (line) => say(`  ${line}`),
      plain: (text) => directory.plain(text),
    });
    const routes = [
      `everything else → #${DEMO_DEFAULT_CHANNEL}`,
      ...DEMO_ROUTES.map(([event, channel]) => `${event} → #${channel}`),
    ];
    say(`feed routes: ${routes.join(', ')}; modcalls ping @${DEMO_GUILD.moderatorRole.name}`);
    say(`webhook address (for npm run simulate): ${setup.webhook.url}`);
    if (options.stateDir !== undefined) {
      // For the simulator against this demo; the secret goes to a file only the user can read, never to the screen.
      writeFileSync(join(dir, 'webhook-url'), `${setup.webhook.url}\n`);
      writeFileSync(join(dir, 'webhook-secret'), `${service.secretOf(setup.webhook.id)}\n`, { mode: 0o600 });
      chmodSync(join(dir, 'webhook-secret'), 0o600);
      say(
        `webhook secret written to ${join(dir, 'webhook-secret')} (npm run simulate -- --url <address> --secret-file <that file>)`,
      );
    }

    const appId = await setUpReleaseCards({
      discord,
      service,
      guild,
      say: (line) => say(`  ${line}`),
      plain: (text) => directory.plain(text),
    });
    const releases = new AbortController();
    const releasing = playReleases({
      service,
      appId,
      stepMs: Math.max(options.intervalMs * 3, RELEASE_STEP_MS),
      signal: releases.signal,
      say,
    }).catch((error: unknown) =>
      say(`the release story stopped: ${error instanceof Error ? error.message : String(error)}`),
    );
    cleanups.push(async () => {
      releases.abort();
      await releasing;
    });
    say(
      `release cards: #${DEMO_RELEASE_CHANNEL} follows ${DEMO_APP.name} through review (a card per version, edited in place)`,
    );

    say('Ctrl-C stops the demo.');
    let firstPlayer: string | undefined;
    const player = new AbortController();
    const playing = playStories({
      service,
      serverId: setup.serverId,
      intervalMs: options.intervalMs,
      seed: randomInt(1, 2 ** 30),
      signal: player.signal,
      say,
      onEvent: (event) => {
        directory.learnFrom(event);
        if (event.event === 'case.created') firstPlayer ??= event.data.case.target.name;
      },
    }).catch((error: unknown) =>
      say(`the event stream stopped: ${error instanceof Error ? error.message : String(error)}`),
    );
    cleanups.push(async () => {
      player.abort();
      await playing;
    });

    const roleId = guild.roles[DEMO_GUILD.moderatorRole.name];
    if (roleId) {
      const stopClaiming = claimFirstModcall({
        discord,
        guildId: guild.id,
        channelId: guild.channels['modcalls'] ?? '',
        roleId,
        say,
        onMember: (userId, name) => directory.learnUser(userId, name),
      });
      cleanups.push(() => stopClaiming());
    }

    let flowing = false;
    const stopAsking = askTheRecord({
      discord,
      guildId: guild.id,
      player: () => firstPlayer,
      flowing: () => flowing,
      say,
      onReply: (reply) => replies.push(reply),
      then: () =>
        showDutyAndDigest({
          discord,
          guildId: guild.id,
          channelId: guild.channels['staff-room'] ?? '',
          digests: bot.store.of(digestModule),
          say,
        })
          .then(() =>
            showStaffLifecycle({
              discord,
              guild,
              channelId: guild.channels['staff-log'] ?? '',
              say,
              plain: (text) => directory.plain(text),
              onMember: (userId, name) => directory.learnUser(userId, name),
              onReply: (reply) => replies.push(reply),
            }),
          )
          .then(() =>
            showOversight({
              discord,
              service,
              guild,
              serverId: setup.serverId,
              intervalMs: options.intervalMs,
              say,
              plain: (text) => directory.plain(text),
              onMember: (userId, name) => directory.learnUser(userId, name),
              onReply: (reply) => replies.push(reply),
            }),
          ),
    });
    cleanups.push(() => stopAsking());

    const counts = () =>
      DEMO_FEED_CHANNELS.map((name) => [name, discord.messages(guild.channels[name] ?? '').length] as const);
    const watcher = setInterval(() => {
      const now = counts();
      if (!now.every(([, count]) => count > 0)) return;
      clearInterval(watcher);
      flowing = true;
      say(
        `feed flowing: every routed channel has messages (${now.map(([name, count]) => `#${name} ${count}`).join(', ')}); see ${preview.url}`,
      );
    }, 100);
    cleanups.push(() => clearInterval(watcher));

    let stopped: Promise<void> | undefined;
    return {
      previewUrl: preview.url,
      intakeUrl: bot.http.url,
      stop: () => (stopped ??= runCleanups()),
    };
  } catch (error) {
    await runCleanups();
    throw error;
  }
}

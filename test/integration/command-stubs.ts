import { Client, PermissionFlagsBits, PermissionsBitField, type ChatInputCommandInteraction } from 'discord.js';

import type { CommandContext } from '../../commands/context.js';
import { createCardPoster } from '../../src/apps/card-poster.js';
import { DeveloperCache } from '../../src/apps/developer-cache.js';
import { createAttachmentDownloader } from '../../src/apps/download-attachment.js';
import { DraftStore } from '../../src/apps/drafts.js';
import type { RunningBot } from '../../src/bot.js';
import { CardRecords } from '../../src/cards/card-records.js';
import { AlertDesk } from '../../src/health/alert-desk.js';
import { alertSettingsOn } from '../../src/health/alert-settings.js';
import { HealthMonitor } from '../../src/health/health-monitor.js';
import { incidentsOn } from '../../src/health/incidents.js';
import { IntakeFailures } from '../../src/health/intake-failures.js';
import type { Logger } from '../../src/logger.js';
import { RUNTIME_TIMERS } from '../../src/timers.js';
import { createServiceClient } from '../../src/upstream/client.js';
import { createDeveloperClient } from '../../src/upstream/developer-client.js';

/** What a stub interaction was answered with, in order. */
export interface StubAnswers {
  deferred: boolean;
  replies: string[];
}

/**
 * A chat-input interaction reduced to what the commands read and call, for driving `execute(interaction, ctx)`
 * without Discord. The end-to-end tests run the same commands through the real discord.js client.
 */
export function stubChatInput(input: {
  guildId: string;
  subcommand?: string;
  strings?: Record<string, string>;
  admin?: boolean;
}): { interaction: ChatInputCommandInteraction; answers: StubAnswers } {
  const answers: StubAnswers = { deferred: false, replies: [] };
  const strings = input.strings ?? {};
  const stub = {
    guildId: input.guildId,
    memberPermissions: new PermissionsBitField(input.admin === false ? 0n : PermissionFlagsBits.ManageGuild),
    deferred: false,
    replied: false,
    options: {
      getSubcommand: () => input.subcommand ?? null,
      getString(name: string, required?: boolean) {
        const value = strings[name];
        if (value === undefined && required) throw new Error(`option ${name} is required`);
        return value ?? null;
      },
    },
    deferReply() {
      stub.deferred = true;
      answers.deferred = true;
      return Promise.resolve();
    },
    editReply(body: { content: string }) {
      answers.replies.push(body.content);
      return Promise.resolve();
    },
    reply(body: { content: string }) {
      stub.replied = true;
      answers.replies.push(body.content);
      return Promise.resolve();
    },
    followUp(body: { content: string }) {
      answers.replies.push(body.content);
      return Promise.resolve();
    },
  };
  return { interaction: stub as unknown as ChatInputCommandInteraction, answers };
}

/** A command context over a bot started with `feed: false`; its client never logs in. */
export function contextFor(
  bot: RunningBot,
  options: { serviceUrl: string; logger: Logger; pingTimeoutMs?: number },
): CommandContext {
  const client = new Client({ intents: [] });
  const alertSettings = alertSettingsOn(bot.store.records);
  const incidents = incidentsOn(bot.store.records);
  // A monitor that is never started: these tests run commands other than /alerts, which only read it.
  const monitor = new HealthMonitor({
    hooks: bot.store.hooks,
    activity: bot.store.activity,
    deliveries: bot.store.deliveries,
    signals: bot.store.signals,
    intakeFailures: new IntakeFailures(),
    incidents,
    settings: alertSettings,
    desk: new AlertDesk({
      incidents,
      settings: alertSettings,
      poster: createCardPoster(client),
      clock: Date.now,
      logger: options.logger,
    }),
    records: bot.store.records,
    probe: {
      signals: bot.store.signals,
      service: createServiceClient({ serviceUrl: options.serviceUrl }),
      activity: bot.store.activity,
      guilds: bot.store.guilds,
      secrets: bot.secrets,
      logger: options.logger,
      clock: Date.now,
      publicUrl: 'https://bot.example.test',
      pingTimeoutMs: options.pingTimeoutMs ?? 2_000,
    },
    clock: Date.now,
    timers: RUNTIME_TIMERS,
    logger: options.logger,
  });
  return {
    hooks: bot.store.hooks,
    guilds: bot.store.guilds,
    secrets: bot.secrets,
    service: createServiceClient({ serviceUrl: options.serviceUrl }),
    publicUrl: 'https://bot.example.test',
    webhookBaseUrl: bot.http.url,
    deliveries: bot.store.deliveries,
    activity: bot.store.activity,
    signals: bot.store.signals,
    discordHealth: bot.discordHealth,
    logger: options.logger,
    clock: Date.now,
    client,
    pingTimeoutMs: options.pingTimeoutMs ?? 2_000,
    appRecords: bot.apps.records,
    developer: createDeveloperClient({ serviceUrl: options.serviceUrl }),
    developerCache: new DeveloperCache(Date.now),
    // Started with `feed: false`, the bot has no poller: nothing follows an app here.
    releases: bot.apps.poller ?? { pollSoon: () => undefined },
    appDrafts: new DraftStore(Date.now),
    downloadAttachment: createAttachmentDownloader(),
    health: { settings: alertSettings, records: bot.store.records, monitor },
    cards: new CardRecords(bot.store.records),
    audit: bot.store.audit,
  };
}

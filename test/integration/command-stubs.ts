import { Client, PermissionFlagsBits, PermissionsBitField, type ChatInputCommandInteraction } from 'discord.js';

import type { Logger } from '../../src/base/logger.js';
import { RUNTIME_TIMERS } from '../../src/base/timers.js';
import type { RunningBot } from '../../src/bot.js';
import type { CommandBasics } from '../../src/discord/command.js';
import { createPostFinder } from '../../src/discord/posting/find-post.js';
import { createPoster } from '../../src/discord/posting/poster.js';
import { createFeatures, type Features } from '../../src/features/index.js';
import { IntakeFailures } from '../../src/intake/intake-failures.js';
import { createServiceClient } from '../../src/upstream/client.js';
import { testConfig } from '../helpers/test-config.js';

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

/** What every command may be given: the features' dependencies together (each command takes its part). */
export type AnyCommandDeps = CommandBasics & UnionToIntersection<Features[keyof Features]['deps']>;

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (both: infer I) => void
  ? I
  : never;

/**
 * The features' dependencies over a bot started with `feed: false`, made as the bot makes them; its client never
 * logs in, and no feature's job is started.
 */
export function contextFor(
  bot: RunningBot,
  options: { serviceUrl: string; logger: Logger; pingTimeoutMs?: number },
): AnyCommandDeps {
  const client = new Client({ intents: [] });
  const pingTimeoutMs = options.pingTimeoutMs ?? 2_000;
  const features = createFeatures(
    {
      config: testConfig({ SERVICE_URL: options.serviceUrl, PUBLIC_URL: 'https://bot.example.test' }),
      store: bot.store,
      secrets: bot.secrets,
      discord: client,
      discordHealth: bot.discordHealth,
      poster: createPoster(client),
      findPosted: createPostFinder(client),
      service: createServiceClient({ serviceUrl: options.serviceUrl }),
      intakeFailures: new IntakeFailures(),
      webhookBaseUrl: bot.http.url,
      clock: Date.now,
      timers: RUNTIME_TIMERS,
      logger: options.logger,
      metrics: bot.metrics,
    },
    { health: { pingTimeoutMs } },
  );
  const deps = Object.values(features).reduce((all, feature) => ({ ...all, ...feature.deps }), {});
  return {
    ...(deps as UnionToIntersection<Features[keyof Features]['deps']>),
    client,
    clock: Date.now,
    logger: options.logger,
    pingTimeoutMs,
    // Nothing follows an app here: the poller is never started.
    releases: { pollSoon: () => undefined },
  };
}

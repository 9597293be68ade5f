/**
 * A fake Discord for tests and the offline demo: `startFakeDiscord()` plus builders for interactions and the
 * validator of request bodies against Discord's published schema.
 *
 * @example
 * const fake = await startFakeDiscord();
 * const guild = fake.addGuild({ channels: [{ name: 'feed' }] });
 * const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiUrl } });
 * await client.login(fake.botToken);
 * // ... let the bot work ...
 * await fake.waitForMessages(guild.channels['feed']!, 1);
 * const outcome = await fake.dispatchInteraction(chatInputCommand({ name: 'status', as: 'member' }));
 * expect(fake.violations).toEqual([]);
 * await client.destroy();
 * await fake.close();
 */
export { FakeDiscord } from './fake-discord.js';
export { startFakeDiscord } from './start-fake-discord.js';
export type { FakeDiscordOptions } from './start-fake-discord.js';
export type {
  DisconnectOptions,
  DisconnectShardOptions,
  DispatchInteractionOptions,
  InteractionOutcome,
} from './fake-discord.js';
export type {
  AddedGuild,
  ChannelSpec,
  GuildSpec,
  OverwriteSpec,
  PermissionBits,
  RoleSpec,
  TestUsers,
  VoiceMemberSpec,
} from './guild-store.js';
export type { FakeMessage, MessageSource } from './message-store.js';
export type { RecordedRequest, Violation } from './rest-handler.js';
export type { InteractionResponseKind, RecordedInteractionResponse } from './interaction-store.js';
export type { IdentifyRecord, ResumeRecord, SessionInfo, Shard } from './gateway.js';
export { shardOfGuild } from './gateway.js';
export { guildIdOnShard } from './snowflake.js';
export { guildIdsOverShards, REALISTIC_GUILD, realisticGuildSpec } from './realistic-guild.js';
export type { FailChannelOptions, FailRequestsOptions, HangRequestsOptions } from './faults.js';
export type { RateLimit } from './rate-limiter.js';
export { autocomplete, buttonClick, chatInputCommand, commandOption, modalSubmit } from './interaction-builders.js';
export type { AttachmentSpec } from './attachment-store.js';
export type {
  ButtonClick,
  CommandInvocation,
  CommandOptionValue,
  InteractionContext,
  InteractionDraft,
  Invoker,
  ModalSubmission,
} from './interaction-builders.js';
export { FakeDiscordTimeoutError } from './waiter.js';
export {
  InvalidDiscordRequestError,
  assertValidCreateMessage,
  matchDiscordRoute,
  validateDiscordRequest,
} from './request-validator.js';
export { countEmbedCharacters, EMBED_TOTAL_CHARACTER_LIMIT } from './message-limits.js';
export { ALL_PERMISSIONS, DEFAULT_BOT_PERMISSIONS, MANAGE_GUILD } from './permissions.js';

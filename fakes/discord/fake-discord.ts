/**
 * The handle tests hold on a running fake Discord: its identity, guild setup, what it recorded, waits,
 * interactions, gateway control and faults. It delegates to the parts `startFakeDiscord` wires together.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import {
  GatewayDispatchEvents,
  GatewayIntentBits,
  InteractionResponseType,
  type APIApplicationCommand,
  type APIAttachment,
  type APIEmbed,
  type APIInteraction,
  type APIUser,
} from 'discord.js';

import { makeUser, type RawGuildChannel } from './api-objects.js';
import type { AttachmentSpec, AttachmentStore } from './attachment-store.js';
import type { CommandStore } from './command-store.js';
import type { FailChannelOptions, FailRequestsOptions, FaultInjector, HangRequestsOptions } from './faults.js';
import {
  shardOfGuild,
  type GatewayServer,
  type IdentifyRecord,
  type ResumeRecord,
  type SessionInfo,
} from './gateway.js';
import type { AddedGuild, GuildSpec, GuildStore, OverwriteSpec, PermissionBits, TestUsers } from './guild-store.js';
import type { InteractionDraft } from './interaction-builders.js';
import { completeInteraction } from './interaction-completion.js';
import type { InteractionStore, RecordedInteractionResponse } from './interaction-store.js';
import type { FakeMessage, MessageStore } from './message-store.js';
import type { RecordedRequest, RestHandler, Violation } from './rest-handler.js';
import type { ChangeNotifier } from './waiter.js';

/** Options of {@link FakeDiscord.dispatchInteraction}. */
export interface DispatchInteractionOptions {
  /** Default 5 000 ms. */
  readonly timeoutMs?: number;
  /**
   * When the promise resolves: `final` (default) waits past a deferred callback (5 or 6) for the edit or
   * follow-up that fills it in; `callback` resolves on the first callback.
   */
  readonly settle?: 'callback' | 'final';
}

/** What became of a dispatched interaction. */
export interface InteractionOutcome {
  /** The INTERACTION_CREATE payload the bot received. */
  readonly interaction: APIInteraction;
  readonly id: string;
  /** The bot's callback (type 4 reply, 5 deferred, 8 autocomplete, 9 modal...). */
  readonly callback: RecordedInteractionResponse;
  /** Every answer up to the moment the outcome settled: callback, edits, follow-ups. */
  readonly responses: readonly RecordedInteractionResponse[];
  /** The original response message in its latest state (after edits), if the callback made one. */
  readonly reply: FakeMessage | undefined;
}

/** Options of {@link FakeDiscord.disconnectGateway}. */
export interface DisconnectOptions {
  /** Close code; default 4000 (discord.js then resumes). */
  readonly code?: number;
  /** Forget the sessions too, so clients must identify again. */
  readonly invalidateSessions?: boolean;
}

/** Options of {@link FakeDiscord.disconnectShard}. */
export interface DisconnectShardOptions {
  /**
   * Close code; default 4000 (discord.js then resumes the shard). 1006 drops the socket without a close frame,
   * as a network failure would.
   */
  readonly code?: number;
  /** Forget the shard's session too, so it must identify again. */
  readonly invalidateSession?: boolean;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFERRED_CALLBACKS = new Set<number>([
  InteractionResponseType.DeferredChannelMessageWithSource,
  InteractionResponseType.DeferredMessageUpdate,
]);

/** A running fake Discord. Create it with `startFakeDiscord()`; stop it with {@link FakeDiscord.close}. */
export class FakeDiscord {
  /** Pass as discord.js `rest.api`, e.g. `http://127.0.0.1:41234/api`. */
  readonly apiUrl: string;
  /** What `GET /gateway/bot` hands out. */
  readonly gatewayUrl: string;
  /** A token for the bot to log in with. Any token is accepted; every one seen is in {@link tokens}. */
  readonly botToken: string;
  readonly applicationId: string;
  readonly botUserId: string;
  /** The bot's user object. */
  readonly bot: APIUser;
  /** The humans every guild has: owner, admin (Manage Server) and member. */
  readonly users: TestUsers;
  /** The shard count `GET /gateway/bot` recommends (the `shards` option; default 1). */
  readonly shardCount: number;

  readonly #server: Server;
  readonly #guilds: GuildStore;
  readonly #messages: MessageStore;
  readonly #interactions: InteractionStore;
  readonly #commands: CommandStore;
  readonly #attachments: AttachmentStore;
  readonly #gateway: GatewayServer;
  readonly #rest: RestHandler;
  readonly #faults: FaultInjector;
  readonly #notifier: ChangeNotifier;
  readonly #nextId: () => string;
  #closed: Promise<void> | undefined;

  /** @internal Use `startFakeDiscord()`. */
  constructor(parts: {
    server: Server;
    port: number;
    guilds: GuildStore;
    messages: MessageStore;
    interactions: InteractionStore;
    commands: CommandStore;
    attachments: AttachmentStore;
    gateway: GatewayServer;
    rest: RestHandler;
    faults: FaultInjector;
    notifier: ChangeNotifier;
    nextId: () => string;
    bot: APIUser;
    users: TestUsers;
    shards: number;
  }) {
    this.#server = parts.server;
    this.#guilds = parts.guilds;
    this.#messages = parts.messages;
    this.#interactions = parts.interactions;
    this.#commands = parts.commands;
    this.#attachments = parts.attachments;
    this.#gateway = parts.gateway;
    this.#rest = parts.rest;
    this.#faults = parts.faults;
    this.#notifier = parts.notifier;
    this.#nextId = parts.nextId;
    this.bot = parts.bot;
    this.users = parts.users;
    this.shardCount = parts.shards;
    this.apiUrl = `http://127.0.0.1:${parts.port}/api`;
    this.gatewayUrl = `ws://127.0.0.1:${parts.port}`;
    this.applicationId = parts.bot.id;
    this.botUserId = parts.bot.id;
    // Shaped like a real token (base64 user id, timestamp, HMAC), so nothing that inspects it chokes.
    this.botToken = [
      Buffer.from(parts.bot.id).toString('base64url'),
      randomBytes(4).toString('base64url'),
      randomBytes(27).toString('base64url'),
    ].join('.');
  }

  // ---- guilds ----

  /**
   * Creates a guild (with the bot as a member holding a managed role, see {@link GuildSpec}) and sends
   * GUILD_CREATE to connected clients; clients that connect later get it after READY.
   */
  addGuild(spec: GuildSpec = {}): AddedGuild {
    const added = this.#guilds.addGuild(spec);
    this.#gateway.announceGuild(added.id);
    this.#notifier.notify();
    return added;
  }

  /**
   * Removes the bot from a guild, as an admin kicking it would: the guild and its channels are gone for the bot
   * (REST about them answers as for unknown ones, a client that connects later does not get the guild) and
   * connected clients get GUILD_DELETE without `unavailable`.
   */
  removeBotFromGuild(guildId: string): void {
    this.#guilds.removeGuild(guildId);
    this.#gateway.announceGuildGone(guildId, false);
    this.#notifier.notify();
  }

  /** A guild outage: connected clients get GUILD_DELETE with `unavailable: true`; the guild and the bot stay. */
  makeGuildUnavailable(guildId: string): void {
    this.#gateway.announceGuildGone(guildId, true);
    this.#notifier.notify();
  }

  /** Adds a human member with these roles (no Manage Server); act as them with `as: { userId }`. */
  addMember(guildId: string, spec: { username: string; roleIds?: readonly string[] }): string {
    const user = makeUser(this.#nextId(), spec.username);
    this.#guilds.addMember(guildId, user, spec.roleIds ?? []);
    return user.id;
  }

  /**
   * Makes the guild's owner a member with these roles (besides owning it, which grants every permission); act as
   * them with `as: { userId: guild.ownerId }`.
   */
  addOwnerMember(guildId: string, roleIds: readonly string[] = []): string {
    this.#guilds.addMember(guildId, this.users.owner, roleIds);
    return this.users.owner.id;
  }

  /**
   * A message someone else posts in a channel or thread: a member of its guild (`{ userId }`: the test users or
   * one {@link addMember} made), or a webhook (`{ webhook: name }`, whose messages may carry embeds as a bot's
   * do). Connected clients get MESSAGE_CREATE. Returns the message's id.
   */
  postMessageAs(
    channelId: string,
    from: { userId: string } | { webhook: string },
    body: { content?: string; embeds?: APIEmbed[]; message_reference?: { message_id: string } },
  ): string {
    const channel = this.#guilds.channel(channelId);
    if (!channel) throw new Error(`postMessageAs: no channel ${channelId}`);
    const guildId = channel.guild_id;
    let author: APIUser;
    let webhookId: string | undefined;
    if ('userId' in from) {
      const user = guildId === undefined ? undefined : this.#guilds.member(guildId, from.userId)?.user;
      if (!user) throw new Error(`postMessageAs: ${from.userId} is not a member of the channel's guild`);
      author = user;
    } else {
      // A webhook's messages are authored by a user object of the webhook's own id, marked as a bot.
      webhookId = this.#nextId();
      author = makeUser(webhookId, from.webhook, true);
    }
    const { message } = this.#messages.create(body, {
      channelId,
      guildId,
      author,
      source: 'channel',
      ...(webhookId === undefined ? {} : { webhookId }),
    });
    this.#gateway.dispatch(
      GatewayDispatchEvents.MessageCreate,
      { ...message.api, guild_id: guildId },
      GatewayIntentBits.GuildMessages,
    );
    this.#notifier.notify();
    return message.id;
  }

  /** Deletes a message as a user would in Discord (later edits of it answer 404 Unknown Message). */
  deleteMessage(messageId: string): void {
    this.#messages.delete(messageId);
  }

  /** The role ids a member holds now (without @everyone); undefined for someone not in the guild. */
  memberRoles(guildId: string, userId: string): readonly string[] | undefined {
    return this.#guilds.member(guildId, userId)?.roles;
  }

  /**
   * Changes a role as a server admin would (its permissions, its place): REST answers with it as it is now, and
   * connected clients get GUILD_ROLE_UPDATE, unless `announce` is false (an update a client missed, e.g. while its
   * gateway was down).
   */
  editRole(
    guildId: string,
    roleId: string,
    changes: { permissions?: PermissionBits; position?: number },
    options: { announce?: boolean } = {},
  ): void {
    const role = this.#guilds.editRole(guildId, roleId, changes);
    if (options.announce !== false) {
      this.#gateway.dispatch(
        GatewayDispatchEvents.GuildRoleUpdate,
        { guild_id: guildId, role },
        GatewayIntentBits.Guilds,
      );
    }
    this.#notifier.notify();
  }

  /** Gives a guild member one more role (e.g. a role the bot checks), as a server admin would. */
  grantRole(guildId: string, userId: string, roleId: string): void {
    this.#guilds.grantRole(guildId, userId, roleId);
  }

  /**
   * A file a user attaches to a command option: pass the returned `id` to `commandOption.attachment`. Its
   * `url` serves the bytes, as Discord's CDN does.
   */
  addAttachment(spec: AttachmentSpec): APIAttachment {
    return this.#attachments.add(spec);
  }

  /**
   * Sets a channel's permission overwrite for one role or member (replacing that one's), as a server admin editing
   * the channel would (e.g. `{ id: botUserId, type: 1, deny: PermissionFlagsBits.SendMessages }` makes it read-only
   * for the bot); connected clients get CHANNEL_UPDATE, unless `announce` is false (an update a client missed, or
   * one it never keeps: a client that caches no channel reads the channel again when it checks it).
   */
  setChannelOverwrite(channelId: string, overwrite: OverwriteSpec, options: { announce?: boolean } = {}): void {
    const channel = this.#guilds.setOverwrite(channelId, overwrite);
    if (options.announce !== false) this.#gateway.dispatch(GatewayDispatchEvents.ChannelUpdate, channel);
    this.#notifier.notify();
  }

  /** A user's computed permissions in a channel (roles, overwrites, implicit rules). */
  channelPermissions(channelId: string, userId: string = this.botUserId): bigint {
    return this.#guilds.channelPermissions(channelId, userId);
  }

  // ---- inspection ----

  /** A channel or thread as Discord would answer `GET /channels/{id}`; undefined when no guild has it. */
  channel(channelId: string): RawGuildChannel | undefined {
    return this.#guilds.channel(channelId);
  }

  /** Visible messages of a channel, oldest first (ephemeral interaction replies are left out). */
  messages(channelId: string): FakeMessage[] {
    return this.#messages.inChannel(channelId);
  }

  /** Visible messages of every channel, in creation order. */
  allMessages(): FakeMessage[] {
    return this.#messages.all();
  }

  /** Every REST request, in arrival order. */
  get requests(): readonly RecordedRequest[] {
    return this.#rest.requests;
  }

  /** Bodies Discord would have refused (each answered 400 Invalid Form Body). Tests assert this is empty. */
  get violations(): readonly Violation[] {
    return this.#rest.violations;
  }

  /** Requests to routes the fake does not know (answered 404). */
  get unhandledRequests(): readonly RecordedRequest[] {
    return this.#rest.unhandledRequests;
  }

  /** Errors inside the fake itself (answered 500); non-empty means a bug in the fake. */
  get internalErrors(): readonly Error[] {
    return this.#rest.internalErrors;
  }

  /** How many requests were answered 429. */
  get rateLimitHits(): number {
    return this.#rest.rateLimitHits;
  }

  /** How many message creates returned an earlier message because of `enforce_nonce`. */
  get nonceDuplicates(): number {
    return this.#messages.nonceDuplicates;
  }

  /** Every token seen, in REST `Authorization` headers and gateway IDENTIFYs. */
  get tokens(): ReadonlySet<string> {
    return new Set([...this.#rest.tokens, ...this.#gateway.identifies.map((identify) => identify.token)]);
  }

  /** Every gateway IDENTIFY, oldest first. */
  get identifies(): readonly IdentifyRecord[] {
    return this.#gateway.identifies;
  }

  /** How many gateway RESUMEs succeeded. */
  get resumes(): number {
    return this.#gateway.resumes;
  }

  /** How many gateway heartbeats clients sent. */
  get heartbeats(): number {
    return this.#gateway.heartbeats;
  }

  /** Gateway sessions with an open socket. */
  get connectedSessions(): number {
    return this.#gateway.connectedSessions;
  }

  /** Every RESUME that succeeded, oldest first, with the shard it resumed. */
  get resumeLog(): readonly ResumeRecord[] {
    return this.#gateway.resumeLog;
  }

  /** Every gateway session that exists (connected, or dropped and resumable), with its shard. */
  get gatewaySessionList(): SessionInfo[] {
    return this.#gateway.sessionList();
  }

  /** The shard a guild belongs to among the recommended {@link shardCount}: `(guild_id >> 22) % count`. */
  shardOf(guildId: string): number {
    return shardOfGuild(guildId, this.shardCount);
  }

  /** Registered commands of a guild, or the global ones when `guildId` is undefined. */
  commands(guildId?: string): APIApplicationCommand[] {
    return this.#commands.list(guildId);
  }

  /** Every answer to an interaction: callback, edits of the original, follow-ups. */
  interactionResponses(interactionId: string): RecordedInteractionResponse[] {
    return this.#interactions.responses(interactionId);
  }

  // ---- waiting ----

  /**
   * Resolves with the first truthy value of `probe`, re-checked whenever the fake's state changes and every
   * 20 ms (so it may look at the client's state too); rejects with `FakeDiscordTimeoutError` after `timeoutMs`
   * (default 5 000).
   */
  waitFor<T>(
    probe: () => T | undefined | false | Promise<T | undefined | false>,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    description = 'condition',
  ): Promise<T> {
    return this.#notifier.waitFor(probe, timeoutMs, () => description);
  }

  /** Resolves with a channel's messages once it has at least `count`. */
  waitForMessages(channelId: string, count: number, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<FakeMessage[]> {
    return this.#notifier.waitFor(
      () => {
        const messages = this.messages(channelId);
        return messages.length >= count ? messages : undefined;
      },
      timeoutMs,
      () => `${count} message(s) in channel ${channelId}; have ${this.messages(channelId).length}`,
    );
  }

  /** Resolves with the first recorded request (past or future) that `predicate` accepts. */
  waitForRequest(
    predicate: (request: RecordedRequest) => boolean,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<RecordedRequest> {
    return this.#notifier.waitFor(
      () => this.requests.find(predicate),
      timeoutMs,
      () => `a matching request; seen ${this.requests.map((r) => `${r.method} ${r.path}`).join(', ') || 'none'}`,
    );
  }

  // ---- gateway ----

  /**
   * Sends INTERACTION_CREATE (completed from the draft: ids, token, guild, channel, member and app permissions,
   * resolved options) to the shard of its guild, and resolves with the bot's answer; see
   * {@link DispatchInteractionOptions}. A shard that is down but resumable gets it when it resumes.
   */
  async dispatchInteraction(
    draft: InteractionDraft,
    options: DispatchInteractionOptions = {},
  ): Promise<InteractionOutcome> {
    const payload = completeInteraction(
      {
        guilds: this.#guilds,
        commands: this.#commands,
        attachments: this.#attachments,
        users: this.users,
        bot: this.bot,
        applicationId: this.applicationId,
        nextId: this.#nextId,
      },
      draft,
    );
    this.#interactions.register(payload);
    if (this.#gateway.dispatch(GatewayDispatchEvents.InteractionCreate, payload) === 0) {
      throw new Error(
        `dispatchInteraction: no gateway session for guild ${payload.guild_id ?? '(none)'}'s shard; log a client in first`,
      );
    }
    const settle = options.settle ?? 'final';
    return this.#notifier.waitFor(
      () => this.#outcome(payload, settle),
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      () => {
        const seen = this.interactionResponses(payload.id).map((r) => ({ kind: r.kind, type: r.type }));
        return `an answer to interaction ${payload.id}; have ${JSON.stringify(seen)}`;
      },
    );
  }

  /** Gateway sessions with a socket open now (a bot process connected to the gateway). */
  get gatewaySessions(): number {
    return this.#gateway.connectedSessions;
  }

  /**
   * Sends any dispatch event to the sessions of its shard (its guild's, from `guild_id`, or shard 0's for an
   * event of no guild); returns how many sessions it went to.
   */
  dispatch(event: string, data: unknown): number {
    return this.#gateway.dispatch(event, data);
  }

  /** Closes gateway sockets from the server side, to test reconnects and resumes. */
  disconnectGateway(options: DisconnectOptions = {}): void {
    this.#gateway.disconnectAll(options.code ?? 4000, options.invalidateSessions ?? false);
  }

  /**
   * Closes the connection of one shard from the server side, as Discord does when it restarts a gateway node,
   * and leaves the other shards connected; see {@link DisconnectShardOptions}. Returns how many sockets closed.
   */
  disconnectShard(shardId: number, options: DisconnectShardOptions = {}): number {
    return this.#gateway.disconnectShard(shardId, options.code ?? 4000, options.invalidateSession ?? false);
  }

  /**
   * Keeps a shard from coming back after {@link disconnectShard}: its IDENTIFYs and RESUMEs wait unanswered
   * until {@link releaseShard}, so a test can act while it is down. The other shards are untouched.
   */
  holdShard(shardId: number): void {
    this.#gateway.holdShard(shardId);
  }

  /** Lets a shard held by {@link holdShard} identify or resume: what it sent meanwhile is answered now. */
  releaseShard(shardId: number): void {
    this.#gateway.releaseShard(shardId);
    this.#notifier.notify();
  }

  // ---- faults ----

  /**
   * Every REST request answers `status` (default 500) for `forMs`, for `count` requests, or until cleared.
   * Mind that @discordjs/rest retries a 5xx at once, without backoff, `retries` times (its option, default 3):
   * one call makes up to 1 + retries requests before it throws `HTTPError`.
   */
  failRequests(options: FailRequestsOptions = {}): void {
    this.#faults.failRequests(options);
  }

  /** REST requests get no answer while the fault lasts (then an answer, or a reset with `afterwards: 'reset'`). */
  hangRequests(options: HangRequestsOptions = {}): void {
    this.#faults.hangRequests(options);
  }

  /** Requests about a channel answer 403 Missing Access (50001) or, with `status: 404`, Unknown Channel (10003). */
  failChannel(channelId: string, options: FailChannelOptions = {}): void {
    this.#faults.failChannel(channelId, options);
  }

  /** Ends the channel's {@link failChannel} fault now; every other fault stays. */
  restoreChannel(channelId: string): void {
    this.#faults.restoreChannel(channelId);
  }

  /** Removes every fault and releases held requests. */
  clearFaults(): void {
    this.#faults.clear();
  }

  // ---- lifecycle ----

  /**
   * Stops everything: held requests are released, sockets closed, pending waits rejected. Destroy discord.js
   * clients first; a client still connected would keep trying to reconnect.
   */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#faults.releaseAll();
      this.#notifier.failAll(new Error('The fake Discord was closed'));
      const serverClosed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
      this.#server.closeAllConnections();
      await Promise.all([this.#gateway.close(), serverClosed]);
    })();
    return this.#closed;
  }

  #outcome(payload: APIInteraction, settle: 'callback' | 'final'): InteractionOutcome | undefined {
    const responses = this.interactionResponses(payload.id);
    const callback = responses.find((response) => response.kind === 'callback');
    if (!callback) return undefined;
    const deferred = callback.type !== undefined && DEFERRED_CALLBACKS.has(callback.type);
    if (settle === 'final' && deferred && !responses.some((r) => r.kind === 'edit' || r.kind === 'followup')) {
      return undefined;
    }
    const original = responses.find((r) => r.kind === 'callback' && r.message !== undefined)?.message;
    return {
      interaction: payload,
      id: payload.id,
      callback,
      responses,
      reply: original === undefined ? undefined : this.#messages.get(original.id),
    };
  }
}

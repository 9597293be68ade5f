/**
 * The fake Discord against the real discord.js 14 client: login, messages, Discord's rules (schema, rate
 * limits, nonces, permissions), faults, interactions and the gateway's resume.
 */
import {
  ActionRowBuilder,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  HTTPError,
  MessageFlags,
  ModalBuilder,
  PermissionFlagsBits,
  Routes,
  SlashCommandBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
  type RESTOptions,
  type TextChannel,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import {
  autocomplete,
  buttonClick,
  chatInputCommand,
  commandOption,
  modalSubmit,
  startFakeDiscord,
  type AddedGuild,
  type FakeDiscord,
  type FakeDiscordOptions,
} from '../../fakes/discord/index.js';

interface Harness {
  readonly fake: FakeDiscord;
  readonly client: Client;
  readonly guild: AddedGuild;
  readonly channel: (name: string) => TextChannel;
}

const running: { fake?: FakeDiscord; client?: Client } = {};

afterEach(async () => {
  await running.client?.destroy();
  await running.fake?.close();
  delete running.client;
  delete running.fake;
});

/** A fake with one guild, and a logged-in discord.js client (Guilds intent only, as the bot uses). */
async function start(options: FakeDiscordOptions = {}, rest: Partial<RESTOptions> = {}): Promise<Harness> {
  const fake = await startFakeDiscord(options);
  running.fake = fake;
  const guild = fake.addGuild({
    name: 'Test Guild',
    channels: [
      { name: 'feed' },
      { name: 'no-send', denyBot: PermissionFlagsBits.SendMessages },
      { name: 'no-embeds', denyBot: PermissionFlagsBits.EmbedLinks },
      { name: 'Voice', type: ChannelType.GuildVoice },
    ],
    roles: [{ name: 'Moderators', mentionable: true }],
  });
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiUrl, ...rest } });
  running.client = client;
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(fake.botToken);
  await ready;
  const channel = (name: string): TextChannel => {
    const found = client.channels.cache.get(guild.channels[name] ?? '');
    if (!found?.isTextBased() || found.type !== ChannelType.GuildText) throw new Error(`No text channel ${name}`);
    return found;
  };
  return { fake, client, guild, channel };
}

/** Runs `handler` for every interaction, turning its failures into test failures instead of silence. */
function onInteraction(client: Client, handler: (interaction: Interaction) => Promise<unknown>): Error[] {
  const errors: Error[] = [];
  client.on(Events.InteractionCreate, (interaction) => {
    handler(interaction).catch((error: unknown) => errors.push(error as Error));
  });
  return errors;
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the promise to reject');
}

describe('fake Discord with the real discord.js client', () => {
  it('logs in: READY, GUILD_CREATE with channels, roles and the bot member, so permissionsFor works', async () => {
    const { fake, client, guild, channel } = await start();

    const cached = client.guilds.cache.get(guild.id);
    expect(cached?.name).toBe('Test Guild');
    expect(cached?.channels.cache.map((c) => c.name)).toEqual(['feed', 'no-send', 'no-embeds', 'Voice']);
    expect(cached?.roles.cache.get(guild.roles['Moderators'] ?? '')?.name).toBe('Moderators');
    expect(client.user?.id).toBe(fake.botUserId);
    expect(client.application?.id).toBe(fake.applicationId);

    const me = cached?.members.me;
    expect(me).toBeDefined();
    const can = (name: string, bit: bigint) => channel(name).permissionsFor(client.user!)?.has(bit);
    expect(can('feed', PermissionFlagsBits.SendMessages)).toBe(true);
    expect(can('feed', PermissionFlagsBits.EmbedLinks)).toBe(true);
    expect(can('no-send', PermissionFlagsBits.SendMessages)).toBe(false);
    expect(can('no-embeds', PermissionFlagsBits.EmbedLinks)).toBe(false);
    expect(can('feed', PermissionFlagsBits.ManageGuild)).toBe(false);

    expect(fake.identifies).toHaveLength(1);
    expect(fake.identifies[0]?.intents).toBe(GatewayIntentBits.Guilds);
    expect(fake.tokens.has(fake.botToken)).toBe(true);
  });

  it('sends GUILD_CREATE for a guild added while connected, and answers heartbeats', async () => {
    const { fake, client } = await start({ heartbeatIntervalMs: 50 });
    const created = new Promise<string>((resolve) => client.once(Events.GuildCreate, (g) => resolve(g.id)));
    const later = fake.addGuild({ name: 'Later' });
    expect(await created).toBe(later.id);
    // Two heartbeats: the client checks that the first was acknowledged before it sends the second.
    await fake.waitFor(() => fake.heartbeats >= 2, 2_000, 'two heartbeats');
    expect(client.ws.ping).toBeGreaterThanOrEqual(0);
  });

  it('sends GUILD_DELETE: with unavailable for an outage, without for a removal, after which the guild is gone', async () => {
    const { fake, client, guild, channel } = await start();
    const feed = channel('feed');
    const unavailable = new Promise<string>((resolve) => client.once(Events.GuildUnavailable, (g) => resolve(g.id)));
    fake.makeGuildUnavailable(guild.id);
    expect(await unavailable).toBe(guild.id);
    expect(fake.messages(feed.id)).toEqual([]);

    const deleted = new Promise<string>((resolve) => client.once(Events.GuildDelete, (g) => resolve(g.id)));
    fake.removeBotFromGuild(guild.id);
    expect(await deleted).toBe(guild.id);
    expect(client.guilds.cache.has(guild.id)).toBe(false);
    expect(
      await rejectionOf(client.rest.post(`/channels/${feed.id}/messages`, { body: { content: 'hi' } })),
    ).toMatchObject({ status: 404 });
    // A client that connects later is not told of the guild.
    const later = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiUrl } });
    try {
      const ready = new Promise<void>((resolve) => later.once(Events.ClientReady, () => resolve()));
      await later.login(fake.botToken);
      await ready;
      expect(later.guilds.cache.has(guild.id)).toBe(false);
    } finally {
      await later.destroy();
    }
  });

  it('stores a message sent with embeds, nonce and enforceNonce, and answers a parseable message', async () => {
    const { fake, channel } = await start();
    const sent = await channel('feed').send({
      content: 'New case',
      embeds: [{ title: 'Case #1', description: 'Kicked', fields: [{ name: 'Reason', value: 'spam' }] }],
      allowedMentions: { parse: [] },
      nonce: 'case-1',
      enforceNonce: true,
    });
    expect(sent.author.id).toBe(fake.botUserId);
    expect(sent.embeds[0]?.title).toBe('Case #1');

    const [stored, ...rest] = fake.messages(channel('feed').id);
    expect(rest).toHaveLength(0);
    expect(stored).toMatchObject({
      id: sent.id,
      content: 'New case',
      nonce: 'case-1',
      allowed_mentions: { parse: [] },
    });
    expect(stored?.embeds[0]).toMatchObject({ title: 'Case #1', fields: [{ name: 'Reason', value: 'spam' }] });
    expect(fake.violations).toEqual([]);
    expect(fake.unhandledRequests).toEqual([]);
  });

  it('refuses a body Discord would refuse with 400 Invalid Form Body and records the violation', async () => {
    const { fake, client, channel } = await start();
    const error = await rejectionOf(
      client.rest.post(Routes.channelMessages(channel('feed').id), { body: { embeds: [{ title: 'x'.repeat(300) }] } }),
    );
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect((error as DiscordAPIError).status).toBe(400);
    expect((error as DiscordAPIError).code).toBe(50035);
    expect(fake.violations).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/channels/${channel('feed').id}/messages`,
        problems: ['/embeds/0/title: must NOT have more than 256 characters'],
      }),
    ]);
    expect(fake.messages(channel('feed').id)).toEqual([]);
  });

  it('rate-limits 5 messages per window per channel; discord.js waits by itself and keeps the order', async () => {
    const { fake, channel } = await start({ messageRateLimit: { limit: 5, windowMs: 1_000 } });
    const started = Date.now();
    await Promise.all(Array.from({ length: 12 }, (_, i) => channel('feed').send(`message ${i}`)));
    expect(fake.messages(channel('feed').id).map((m) => m.content)).toEqual(
      Array.from({ length: 12 }, (_, i) => `message ${i}`),
    );
    // 12 messages at 5 per second need two full waits.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    // With the headers discord.js sees the limit coming and never gets a 429.
    expect(fake.rateLimitHits).toBe(0);
  });

  it('answers 429 with Retry-After when the limit is not advertised, and discord.js retries', async () => {
    const { fake, channel } = await start({
      messageRateLimit: { limit: 5, windowMs: 1_000 },
      advertiseRateLimits: false,
    });
    await Promise.all(Array.from({ length: 12 }, (_, i) => channel('feed').send(`message ${i}`)));
    expect(fake.messages(channel('feed').id).map((m) => m.content)).toEqual(
      Array.from({ length: 12 }, (_, i) => `message ${i}`),
    );
    expect(fake.rateLimitHits).toBeGreaterThan(0);
    const limited = fake.requests.find((r) => r.status === 429);
    expect(limited).toBeDefined();
  });

  it('returns the first message for a repeated nonce with enforce_nonce, and creates nothing', async () => {
    const { fake, channel } = await start();
    const feed = channel('feed');
    const first = await feed.send({ content: 'once', nonce: 'delivery-42', enforceNonce: true });
    const again = await feed.send({ content: 'once', nonce: 'delivery-42', enforceNonce: true });
    expect(again.id).toBe(first.id);
    expect(fake.messages(feed.id)).toHaveLength(1);
    expect(fake.nonceDuplicates).toBe(1);

    // Without enforce_nonce Discord does not de-duplicate.
    await feed.send({ content: 'twice', nonce: 'delivery-43' });
    await feed.send({ content: 'twice', nonce: 'delivery-43' });
    expect(fake.messages(feed.id)).toHaveLength(3);
  });

  it('fails a channel with 403 Missing Access or 404 Unknown Channel until cleared', async () => {
    const { fake, channel } = await start();
    const feed = channel('feed');

    fake.failChannel(feed.id, { status: 403 });
    const forbidden = await rejectionOf(feed.send('x'));
    expect(forbidden).toBeInstanceOf(DiscordAPIError);
    expect((forbidden as DiscordAPIError).code).toBe(50001);
    expect((forbidden as DiscordAPIError).status).toBe(403);

    fake.failChannel(feed.id, { status: 404 });
    expect(((await rejectionOf(feed.send('x'))) as DiscordAPIError).code).toBe(10003);

    fake.clearFaults();
    await feed.send('back');
    expect(fake.messages(feed.id).map((m) => m.content)).toEqual(['back']);
  });

  it("applies the bot's own permissions: no Send Messages is 50013, no Embed Links drops embeds", async () => {
    const { fake, client, channel } = await start();
    const denied = await rejectionOf(channel('no-send').send('x'));
    expect((denied as DiscordAPIError).code).toBe(50013);

    await channel('no-embeds').send({ content: 'text stays', embeds: [{ title: 'dropped' }] });
    expect(fake.messages(channel('no-embeds').id)[0]).toMatchObject({
      content: 'text stays',
      embeds: [],
      embeds_dropped: true,
    });

    const unknown = await rejectionOf(client.rest.post(Routes.channelMessages('1'), { body: { content: 'x' } }));
    expect((unknown as DiscordAPIError).code).toBe(10003);
  });

  it("gives and takes a member's role below the bot's, with its audit-log reason; refuses what Discord refuses", async () => {
    const fake = await startFakeDiscord();
    running.fake = fake;
    const guild = fake.addGuild({
      botPermissions: PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ManageRoles,
      roles: [
        { name: 'On Duty', position: 1 },
        { name: 'Above', position: 9 },
      ],
    });
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiUrl } });
    running.client = client;
    await client.login(fake.botToken);
    const member = fake.users.member.id;
    const onDuty = guild.roles['On Duty'] ?? '';
    const route = (roleId: string, userId = member) => Routes.guildMemberRole(guild.id, userId, roleId);

    await client.rest.put(route(onDuty), { reason: 'On shift: shift 7 began' });
    expect(fake.memberRoles(guild.id, member)).toEqual([guild.staffRoleId, onDuty]);
    const given = fake.requests.find((request) => request.method === 'PUT' && request.path === route(onDuty));
    expect(given).toMatchObject({ status: 204, auditLogReason: 'On shift: shift 7 began' });
    // Giving it again changes nothing; taking it away leaves the other roles.
    await client.rest.put(route(onDuty));
    expect(fake.memberRoles(guild.id, member)).toEqual([guild.staffRoleId, onDuty]);
    await client.rest.delete(route(onDuty), { reason: 'Shift ended' });
    expect(fake.memberRoles(guild.id, member)).toEqual([guild.staffRoleId]);

    // Above the bot's role, the bot's own (managed) role, @everyone: 50013. Unknown role and member: 404.
    for (const roleId of [guild.roles['Above'] ?? '', guild.botRoleId, guild.id]) {
      expect(((await rejectionOf(client.rest.put(route(roleId)))) as DiscordAPIError).code).toBe(50013);
    }
    expect(((await rejectionOf(client.rest.put(route('1')))) as DiscordAPIError).code).toBe(10011);
    expect(((await rejectionOf(client.rest.put(route(onDuty, '2')))) as DiscordAPIError).code).toBe(10007);
    // A body on a route that takes none is refused, as the schema says.
    await rejectionOf(client.rest.put(route(onDuty), { body: { roles: [] } }));
    expect(fake.violations.map((violation) => violation.problems)).toEqual([['/: this route takes no request body']]);
    expect(fake.unhandledRequests).toEqual([]);
  });

  it('refuses a role change without Manage Roles', async () => {
    const fake = await startFakeDiscord();
    running.fake = fake;
    const guild = fake.addGuild({ roles: [{ name: 'On Duty', position: 1 }] });
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiUrl } });
    running.client = client;
    await client.login(fake.botToken);
    const route = Routes.guildMemberRole(guild.id, fake.users.member.id, guild.roles['On Duty'] ?? '');
    expect(((await rejectionOf(client.rest.put(route))) as DiscordAPIError).code).toBe(50013);
    expect(fake.memberRoles(guild.id, fake.users.member.id)).toEqual([guild.staffRoleId]);
  });

  it('fails every request with 500 for a while; discord.js retries 5xx, then gives up, then recovers', async () => {
    // @discordjs/rest retries a 5xx answer (and a timed-out or reset request) immediately, without backoff,
    // `retries` times (default 3): one send makes up to 1 + retries requests before throwing HTTPError.
    const { fake, channel } = await start({}, { retries: 3 });
    const feed = channel('feed');

    fake.failRequests({ status: 500, count: 2 });
    await feed.send('third attempt wins');
    expect(fake.requests.filter((r) => r.path.endsWith('/messages')).map((r) => r.status)).toEqual([500, 500, 200]);

    // The outage outlasts the immediate retries by far, so the send fails whatever the machine's speed.
    const outageEnds = Date.now() + 1_000;
    fake.failRequests({ status: 503, forMs: 1_000 });
    const error = await rejectionOf(feed.send('lost'));
    expect(error).toBeInstanceOf(HTTPError);
    expect((error as HTTPError).status).toBe(503);
    expect(fake.requests.filter((r) => r.status === 503)).toHaveLength(4);

    await new Promise((resolve) => setTimeout(resolve, outageEnds - Date.now() + 20));
    await feed.send('recovered');
    expect(fake.messages(feed.id).map((m) => m.content)).toEqual(['third attempt wins', 'recovered']);
  });

  it('holds requests during a hang; a timed-out send retried with the same nonce posts once', async () => {
    const { fake, channel } = await start({}, { timeout: 200, retries: 1 });
    const feed = channel('feed');
    fake.hangRequests({ count: 1, forMs: 400 });
    const sent = await feed.send({ content: 'exactly once', nonce: 'retry-me', enforceNonce: true });
    // The held first attempt is processed when the hang ends, and finds the retry's message by its nonce.
    await fake.waitFor(() => fake.nonceDuplicates === 1, 2_000, 'the held attempt to be processed');
    expect(fake.messages(feed.id).map((m) => m.id)).toEqual([sent.id]);
  });

  it("pages a channel's history as Discord does (newest first; after, before or the newest), with others' messages and replies", async () => {
    const { fake, client, guild, channel } = await start();
    const feed = channel('feed').id;
    const memberId = fake.addMember(guild.id, { username: 'chatty' });
    const first = await channel('feed').send({ content: 'the bot' });
    const chat = Array.from({ length: 5 }, (_, n) =>
      fake.postMessageAs(feed, { userId: memberId }, { content: `${n}` }),
    );
    const hook = fake.postMessageAs(feed, { webhook: 'Integration' }, { embeds: [{ title: 'Card' }] });
    const reply = await client.rest.post(Routes.channelMessages(feed), {
      body: { content: 'a reply', message_reference: { message_id: first.id } },
    });
    const page = async (query: Record<string, string>) =>
      (await client.rest.get(Routes.channelMessages(feed), { query: new URLSearchParams(query) })) as Array<{
        id: string;
        author: { id: string };
        webhook_id?: string;
        message_reference?: { message_id: string };
      }>;

    const ids = [first.id, ...chat, hook, (reply as { id: string }).id];
    expect((await page({ limit: '3' })).map((m) => m.id)).toEqual(ids.slice(-3).reverse());
    expect((await page({ after: first.id, limit: '2' })).map((m) => m.id)).toEqual(ids.slice(1, 3).reverse());
    expect((await page({ before: hook, limit: '2' })).map((m) => m.id)).toEqual(ids.slice(4, 6).reverse());
    const [newest, webhook, member] = await page({ limit: '3' });
    expect(newest).toMatchObject({ author: { id: fake.botUserId }, message_reference: { message_id: first.id } });
    // A webhook's message is authored by the webhook itself.
    expect(webhook?.id).toBe(hook);
    expect(webhook?.webhook_id).toBe(webhook?.author.id);
    expect(webhook?.author.id).not.toBe(fake.botUserId);
    expect(member?.author.id).toBe(memberId);
  });

  it("edits the bot's own channel messages, and refuses unknown ones and bodies Discord would refuse", async () => {
    const { fake, client, channel } = await start();
    const sent = await channel('feed').send({ content: 'v1' });
    const edited = await channel('feed').messages.edit(sent.id, { content: 'v2', embeds: [{ title: 'Card' }] });
    expect(edited.content).toBe('v2');
    const [stored] = fake.messages(channel('feed').id);
    expect(stored).toMatchObject({ id: sent.id, content: 'v2' });
    expect(stored?.api.edited_timestamp).not.toBeNull();

    const unknown = await rejectionOf(client.rest.patch(Routes.channelMessage(channel('feed').id, '1'), { body: {} }));
    expect(unknown).toBeInstanceOf(DiscordAPIError);
    expect((unknown as DiscordAPIError).code).toBe(10008);
    const invalid = await rejectionOf(
      client.rest.patch(Routes.channelMessage(channel('feed').id, sent.id), {
        body: { embeds: [{ title: 'x'.repeat(300) }] },
      }),
    );
    expect((invalid as DiscordAPIError).code).toBe(50035);
    expect(fake.violations.map((violation) => violation.method)).toEqual(['PATCH']);
  });

  it('dispatches a button click with its message; an update and a deferred update edit that message', async () => {
    const { fake, client, channel } = await start();
    const errors = onInteraction(client, async (interaction) => {
      if (interaction.isChatInputCommand()) {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('x:now').setLabel('Now').setStyle(ButtonStyle.Primary),
          new ButtonBuilder().setCustomId('x:later').setLabel('Later').setStyle(ButtonStyle.Secondary),
        );
        await interaction.reply({ content: 'Pick', components: [row], flags: MessageFlags.Ephemeral });
      } else if (interaction.isButton() && interaction.customId === 'x:now') {
        await interaction.update({ content: `Now, from ${interaction.message.id}`, components: [] });
      } else if (interaction.isButton()) {
        await interaction.deferUpdate();
        await interaction.editReply({ content: 'Later', components: [] });
      }
    });
    const asked = await fake.dispatchInteraction(chatInputCommand({ name: 'pick' }));
    const message = asked.reply;
    if (!message) throw new Error('no reply');
    const now = await fake.dispatchInteraction(buttonClick({ customId: 'x:now', message }));
    expect(now.callback.type).toBe(7);
    expect(now.reply).toMatchObject({
      id: message.id,
      content: `Now, from ${message.id}`,
      ephemeral: true,
      components: [],
    });
    const later = await fake.dispatchInteraction(buttonClick({ customId: 'x:later', message, as: 'member' }));
    expect(later.callback.type).toBe(6);
    expect(later.reply).toMatchObject({ id: message.id, content: 'Later' });
    expect(fake.messages(channel('feed').id)).toEqual([]);
    expect(errors).toEqual([]);
    expect(fake.violations).toEqual([]);
  });

  it('resolves attachment options and serves their bytes at their URL, announcing the size given', async () => {
    const { fake, client } = await start();
    const bytes = new Uint8Array([1, 2, 3, 250]);
    const attachment = fake.addAttachment({ filename: 'build.zip', bytes, contentType: 'application/zip' });
    const short = fake.addAttachment({ filename: 'short.zip', bytes, size: 10 });
    const seen: Array<{ name: string; size: number; url: string }> = [];
    const errors = onInteraction(client, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      for (const name of ['file', 'other']) {
        const file = interaction.options.getAttachment(name, true);
        seen.push({ name: file.name, size: file.size, url: file.url });
      }
      await interaction.reply({ content: 'ok', flags: MessageFlags.Ephemeral });
    });
    await fake.dispatchInteraction(
      chatInputCommand({
        name: 'app',
        options: [commandOption.attachment('file', attachment.id), commandOption.attachment('other', short.id)],
      }),
    );
    expect(seen.map(({ name, size }) => [name, size])).toEqual([
      ['build.zip', 4],
      ['short.zip', 10],
    ]);
    const served = await fetch(seen[0]?.url ?? '');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    expect((await fetch(`${seen[0]?.url ?? ''}.other`)).status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('records unknown routes as unhandled 404s', async () => {
    const { fake, client, guild } = await start();
    const error = await rejectionOf(client.rest.get(Routes.guildBans(guild.id)));
    expect((error as DiscordAPIError).status).toBe(404);
    expect(fake.unhandledRequests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /guilds/${guild.id}/bans`]);
  });

  it('registers global and guild commands, keeping ids across overwrites', async () => {
    const { fake, client, guild } = await start();
    const setup = new SlashCommandBuilder()
      .setName('setup')
      .setDescription('Set the server key')
      .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild);
    const [created] = [...(await client.application!.commands.set([setup.toJSON()])).values()];
    expect(created?.defaultMemberPermissions?.has(PermissionFlagsBits.ManageGuild)).toBe(true);
    const [again] = [...(await client.application!.commands.set([setup.toJSON()])).values()];
    expect(again?.id).toBe(created?.id);

    await client.guilds.cache.get(guild.id)!.commands.set([setup.setName('status').toJSON()]);
    expect(fake.commands().map((c) => c.name)).toEqual(['setup']);
    expect(fake.commands(guild.id).map((c) => c.name)).toEqual(['status']);
    expect(fake.violations).toEqual([]);
  });

  it('dispatches a slash command that discord.js parses fully; an ephemeral reply is recorded', async () => {
    const { fake, client, guild, channel } = await start();
    const seen: Record<string, unknown>[] = [];
    const errors = onInteraction(client, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      seen.push({
        command: interaction.commandName,
        subcommand: interaction.options.getSubcommand(),
        channel: interaction.options.getChannel('channel')?.id,
        channelIsText: interaction.options.getChannel('channel')?.type === ChannelType.GuildText,
        role: interaction.options.getRole('role')?.name,
        note: interaction.options.getString('note'),
        manageGuild: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild),
        appCanSend: interaction.appPermissions.has(PermissionFlagsBits.SendMessages),
        inGuild: interaction.inCachedGuild(),
      });
      await interaction.reply({ content: 'Saved.', flags: MessageFlags.Ephemeral });
    });

    const options = [
      commandOption.channel('channel', channel('feed').id),
      commandOption.role('role', guild.roles['Moderators'] ?? ''),
      commandOption.string('note', 'hello'),
    ];
    const outcome = await fake.dispatchInteraction(chatInputCommand({ name: 'feed', subcommand: 'set', options }));
    expect(outcome.callback.type).toBe(4);
    expect(outcome.callback.data).toMatchObject({ content: 'Saved.', flags: MessageFlags.Ephemeral });
    expect(outcome.reply?.ephemeral).toBe(true);
    expect(fake.messages(channel('feed').id)).toEqual([]);

    await fake.dispatchInteraction(chatInputCommand({ name: 'feed', subcommand: 'set', options, as: 'member' }));
    expect(seen).toEqual([
      {
        command: 'feed',
        subcommand: 'set',
        channel: channel('feed').id,
        channelIsText: true,
        role: 'Moderators',
        note: 'hello',
        manageGuild: true,
        appCanSend: true,
        inGuild: true,
      },
      expect.objectContaining({ manageGuild: false }),
    ]);
    expect(errors).toEqual([]);
    expect(fake.violations).toEqual([]);
  });

  it('takes a reply with files (multipart): serves their bytes, and refuses an image naming no file', async () => {
    const { fake, client, channel } = await start();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 0, 255]);
    const errors = onInteraction(client, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      const name = interaction.options.getString('note') ?? '';
      const file = new AttachmentBuilder(png, { name: 'chart.png', description: 'A chart' });
      await interaction.reply({
        embeds: [{ title: 'Chart', image: { url: `attachment://${name}` } }],
        files: [file],
        flags: MessageFlags.Ephemeral,
      });
    });

    const good = await fake.dispatchInteraction(
      chatInputCommand({ name: 'chart', subcommand: 'show', options: [commandOption.string('note', 'chart.png')] }),
    );
    expect(good.callback.type).toBe(4);
    const [uploaded] = good.reply?.api.attachments ?? [];
    expect(uploaded).toMatchObject({ filename: 'chart.png', size: png.length, content_type: 'image/png' });
    const served = await fetch(uploaded?.url ?? '');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
    expect(good.callback.data).toMatchObject({
      embeds: [{ title: 'Chart', image: { url: 'attachment://chart.png' } }],
      // discord.js names each file by its part (`files[0]`): the id is the part's number, the name the part's.
      attachments: [{ id: '0', description: 'A chart' }],
    });
    expect(good.reply?.ephemeral).toBe(true);
    expect(fake.violations).toEqual([]);

    // Discord would draw nothing where the embed names a file the reply did not upload.
    await fake
      .dispatchInteraction(
        chatInputCommand({ name: 'chart', subcommand: 'show', options: [commandOption.string('note', 'other.png')] }),
        { timeoutMs: 2_000 },
      )
      .catch(() => undefined);
    await fake.waitFor(() => errors.length === 1, 5_000, 'the refused reply');
    expect(fake.violations.map((violation) => violation.problems)).toEqual([
      ['/embeds/0/image: attachment://other.png names no file of this request'],
    ]);
    expect(fake.messages(channel('feed').id)).toEqual([]);
  });

  it('records a modal, then parses the modal submit', async () => {
    const { fake, client } = await start();
    const errors = onInteraction(client, async (interaction) => {
      if (interaction.isChatInputCommand()) {
        const input = new TextInputBuilder().setCustomId('key').setLabel('Server key').setStyle(TextInputStyle.Short);
        await interaction.showModal(
          new ModalBuilder()
            .setCustomId('setup-modal')
            .setTitle('Setup')
            .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)),
        );
      } else if (interaction.isModalSubmit()) {
        const key = interaction.fields.getTextInputValue('key');
        await interaction.reply({ content: `Key ends in ${key.slice(-4)}`, flags: MessageFlags.Ephemeral });
      }
    });

    const shown = await fake.dispatchInteraction(chatInputCommand({ name: 'setup' }));
    expect(shown.callback.type).toBe(9);
    expect(shown.callback.data).toMatchObject({ custom_id: 'setup-modal', title: 'Setup' });

    const submitted = await fake.dispatchInteraction(
      modalSubmit({ customId: 'setup-modal', fields: { key: 'sk-12345678' } }),
    );
    expect(submitted.callback.data).toMatchObject({ content: 'Key ends in 5678' });

    // Modals built with labels come back in labels; discord.js reads both layouts.
    const labelled = await fake.dispatchInteraction(
      modalSubmit({ customId: 'setup-modal', fields: { key: 'sk-abcd' }, layout: 'label' }),
    );
    expect(labelled.callback.data).toMatchObject({ content: 'Key ends in abcd' });
    expect(errors).toEqual([]);
  });

  it('takes files uploaded with a reply, an edit, a follow-up and a channel message, serves them, and refuses one over the limit', async () => {
    const { fake, client, channel } = await start();
    const sent: Array<{ name: string; size: number; url: string }> = [];
    const errors = onInteraction(client, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      if (interaction.commandName === 'export') {
        const reply = await interaction.reply({
          content: 'Here.',
          files: [{ attachment: Buffer.from('a,b\r\n1,2\r\n'), name: 'one.csv' }],
          flags: MessageFlags.Ephemeral,
          withResponse: true,
        });
        for (const file of reply.resource?.message?.attachments.values() ?? []) {
          sent.push({ name: file.name, size: file.size, url: file.url });
        }
        // An edit that adds a file keeps the ones it lists.
        const kept = reply.resource?.message?.attachments.first();
        await interaction.editReply({
          files: [{ attachment: Buffer.from('x'), name: 'two.csv' }],
          attachments: kept ? [kept] : [],
        });
        await interaction.followUp({
          files: [{ attachment: Buffer.from('y'), name: 'three.csv' }],
          flags: MessageFlags.Ephemeral,
        });
      } else {
        await interaction.reply({ files: [{ attachment: Buffer.alloc(2_000), name: 'big.csv' }] }).catch(() => {
          sent.push({ name: 'refused', size: 0, url: '' });
        });
      }
    });
    const outcome = await fake.dispatchInteraction(chatInputCommand({ name: 'export' }));
    await fake.waitFor(() => fake.interactionResponses(outcome.id).some((r) => r.kind === 'followup'));
    expect(sent.map(({ name, size }) => [name, size])).toEqual([['one.csv', 10]]);
    expect(await (await fetch(sent[0]?.url ?? '')).text()).toBe('a,b\r\n1,2\r\n');
    const [, edit, followUp] = fake.interactionResponses(outcome.id);
    expect(edit?.message?.api.attachments.map((file) => file.filename)).toEqual(['one.csv', 'two.csv']);
    expect(followUp?.message?.api.attachments.map((file) => file.filename)).toEqual(['three.csv']);
    expect(await (await fetch(followUp?.message?.api.attachments[0]?.url ?? '')).text()).toBe('y');

    // Over the interaction's attachment_size_limit: 413, as Discord answers, and nothing is stored.
    const big = await fake
      .dispatchInteraction(chatInputCommand({ name: 'status', overrides: { attachment_size_limit: 1_000 } }), {
        settle: 'callback',
        timeoutMs: 1_000,
      })
      .catch(() => undefined);
    await fake.waitFor(() => sent.some((file) => file.name === 'refused'));
    expect(big).toBeUndefined();
    expect(fake.requests.filter((request) => request.status === 413)).toHaveLength(1);
    // A channel message takes files too (the bot has Attach Files there), served at their URL.
    const posted = await channel('feed').send({ files: [{ attachment: Buffer.from('z'), name: 'z.csv' }] });
    expect(await (await fetch(posted.attachments.first()?.url ?? '')).text()).toBe('z');
    expect(fake.violations).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('records autocomplete choices, and a deferred reply settles with its edit and follow-up', async () => {
    const { fake, client } = await start();
    const errors = onInteraction(client, async (interaction) => {
      if (interaction.isAutocomplete()) {
        const typed = interaction.options.getFocused();
        await interaction.respond([{ name: `${typed}-hook`, value: 'hook-1' }]);
      } else if (interaction.isChatInputCommand()) {
        await interaction.deferReply({ flags: MessageFlags.Ephemeral });
        await interaction.editReply({ content: 'Done after a while.' });
        await interaction.followUp({ content: 'One more thing.', flags: MessageFlags.Ephemeral });
      }
    });

    const choices = await fake.dispatchInteraction(
      autocomplete({ name: 'webhook', subcommand: 'remove', focused: 'hook', typed: 'ma' }),
    );
    expect(choices.callback).toMatchObject({ type: 8, data: { choices: [{ name: 'ma-hook', value: 'hook-1' }] } });

    const deferred = await fake.dispatchInteraction(chatInputCommand({ name: 'status' }));
    expect(deferred.callback.type).toBe(5);
    expect(deferred.reply).toMatchObject({ content: 'Done after a while.', ephemeral: true });
    await fake.waitFor(() => fake.interactionResponses(deferred.id).some((r) => r.kind === 'followup'));
    expect(fake.interactionResponses(deferred.id).map((r) => r.kind)).toEqual(['callback', 'edit', 'followup']);
    expect(errors).toEqual([]);
    expect(fake.violations).toEqual([]);
  });

  it('answers with_response=true with the callback resource, which discord.js parses', async () => {
    const { fake, client } = await start();
    const replies: (string | undefined)[] = [];
    const errors = onInteraction(client, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      const response = await interaction.reply({ content: 'with response', withResponse: true });
      replies.push(response.resource?.message?.content);
    });
    const outcome = await fake.dispatchInteraction(chatInputCommand({ name: 'status' }));
    await fake.waitFor(() => replies.length > 0 || errors.length > 0);
    expect(errors).toEqual([]);
    expect(replies).toEqual(['with response']);
    // Not ephemeral, so everyone in the channel sees it.
    expect(fake.messages(outcome.interaction.channel?.id ?? '').map((m) => m.content)).toEqual(['with response']);
    expect(fake.requests.some((r) => r.query['with_response'] === 'true')).toBe(true);
  });

  it('refuses a callback after the 3-second deadline (here shortened) with Unknown interaction', async () => {
    const { fake, client } = await start({ interactionCallbackDeadlineMs: 50 });
    const failures = onInteraction(client, async (interaction) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      if (interaction.isRepliable()) await interaction.reply({ content: 'too late' });
    });
    const outcome = fake.dispatchInteraction(chatInputCommand({ name: 'status' }), { timeoutMs: 500 });
    await expect(outcome).rejects.toThrow(/Timed out/);
    expect((failures[0] as DiscordAPIError | undefined)?.code).toBe(10062);
  });

  it('replays an interaction dispatched while the gateway was down once discord.js resumes', async () => {
    const { fake, client } = await start();
    onInteraction(client, async (interaction) => {
      if (interaction.isRepliable()) await interaction.reply({ content: 'pong', flags: MessageFlags.Ephemeral });
    });
    fake.disconnectGateway();
    const outcome = await fake.dispatchInteraction(chatInputCommand({ name: 'ping' }));
    expect(outcome.callback.data).toMatchObject({ content: 'pong' });
    expect(fake.resumes).toBe(1);
    expect(fake.identifies).toHaveLength(1);
  });

  it('closes quickly, even with a request held by a hang', async () => {
    const { fake, client, channel } = await start({}, { retries: 0 });
    fake.hangRequests();
    const pending = channel('feed')
      .send('never answered')
      .catch((error: unknown) => error);
    await fake.waitForRequest((r) => r.path.endsWith('/messages'));
    const started = Date.now();
    await client.destroy();
    await fake.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(Error);
  });
});

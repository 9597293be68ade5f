import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { chatInputCommand, commandOption, type FakeDiscord, type FakeMessage } from '../fakes/discord/index.js';
import type { FakeService } from '../fakes/service/index.js';
import { alertFooter } from '../src/features/conduct/render-conduct-alert.js';
import type { EventOf, ServiceEvent } from '../src/upstream/schemas.js';
import { DEMO_GUILD } from './demo-guild.js';
import type { DemoSceneOptions } from './demo-scene.js';

/** The channel the conduct alerts go to (added at the end of DEMO_GUILD.channels). */
const OVERSIGHT_CHANNEL = 'oversight';
/** The demo moderator whose burst of bans the guard sees. */
const MODERATOR_NAME = 'Deputy Kane';
/** The players of the burst, one ban each (none of them in the stories' cast). */
const BANNED = ['RoadRager_91', 'spawnkill_sam', 'NoClipNate', 'hydrant_hopper', 'Vroom4Life', 'copbait_carl'];
/**
 * The burst's case numbers count up from here: each story numbers its three cases on from a number in 120–480
 * (fakes/service/event-stream.ts), so these never name a story's case. The shift's id is clear of the stories'
 * (300–900, counting up) the same way.
 */
const FIRST_CASE = 9001;
const SHIFT_ID = 9001;
/** The rules the scene turns off: the stories playing meanwhile could trip them at random. */
const QUIET_RULES = ['off-shift', 'voids', 'staff-target'] as const;
/** The guard's default burst: five bans or kicks by one moderator within 10 minutes. */
const BURST = 5;
/** How long the alert may take: the record's writer, then the guard (every 2 s), then the alerts (every 5 s). */
const ALERT_WAIT_MS = 30_000;
const LOOK_EVERY_MS = 200;
/** How the guard's alerts begin their footer: what tells them from other messages. */
const ALERT_FOOTER = alertFooter({ id: '' });

/**
 * The demo admin turns on the conduct guard once the duty views are shown: `/conduct role` to @Admin and
 * `/conduct channel` to #oversight. A demo moderator then clocks in and bans players in a burst, delivered by the fake
 * service through the signed webhook like the stories: one alert is posted in #oversight, then edited in place as a
 * sixth ban grows it. Last, the admin asks `/case evidence` for the burst's first case; its ephemeral answer (with
 * its HTML file) goes to the replies panel. Once; a failure says one line and leaves the demo running.
 */
export async function showOversight(
  options: DemoSceneOptions & {
    service: Pick<FakeService, 'emit'>;
    /** The game server of the key the admin set up: its webhooks get the deliveries. */
    serverId: string;
    /** Pause between two deliveries of the burst. */
    intervalMs: number;
  },
): Promise<void> {
  try {
    await playOversight(options);
  } catch (error) {
    options.say(`the oversight step failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function playOversight(options: Parameters<typeof showOversight>[0]): Promise<void> {
  const { discord, service, guild, serverId, say, plain } = options;
  const channelId = guild.channels[OVERSIGHT_CHANNEL];
  if (channelId === undefined) throw new Error(`the guild has no #${OVERSIGHT_CHANNEL}`);
  const run = async (name: string, subcommand: string, values: ReturnType<typeof commandOption.string>[]) => {
    const draft = chatInputCommand({ name, subcommand, options: values, as: 'admin', guildId: guild.id });
    return (await discord.dispatchInteraction(draft, { timeoutMs: 15_000 })).reply;
  };

  // The role first, so the channel's answer says the whole of it: where alerts go and who answers them.
  const role = await run('conduct', 'role', [commandOption.role('role', guild.adminRoleId)]);
  say(`/conduct role role:@Admin → ${plain(role?.content ?? '')}`);
  // The stories keep playing meanwhile, their cases timed over the last hours: the rules they would trip (a case
  // dated before its moderator's clock-in, a void) are turned off before alerts have a channel, so #oversight shows
  // the burst's one alert and nothing the random stories happened to make.
  for (const rule of QUIET_RULES) {
    const set = await run('conduct', 'set', [commandOption.string('rule', rule), commandOption.boolean('on', false)]);
    say(`/conduct set rule:${rule} on:false → ${plain(set?.content ?? '')}`);
  }
  const channel = await run('conduct', 'channel', [commandOption.channel('channel', channelId)]);
  say(`/conduct channel channel:#${OVERSIGHT_CHANNEL} → ${plain(channel?.content ?? '')}`);

  const moderatorRoleId = guild.roles[DEMO_GUILD.moderatorRole.name];
  const moderatorId = discord.addMember(guild.id, {
    username: MODERATOR_NAME,
    roleIds: moderatorRoleId === undefined ? [] : [moderatorRoleId],
  });
  options.onMember(moderatorId, MODERATOR_NAME);
  const moderator = { discordId: moderatorId, name: MODERATOR_NAME };
  // Envelopes as the stories make them (a fresh delivery id each), timed at the moment they are delivered.
  const emit = async <E extends ServiceEvent>(event: E['event'], data: E['data'], at: number) => {
    const id = `dlv_${randomBytes(12).toString('hex')}`;
    const records = await service.emit({ id, event, server: serverId, at, data });
    if (!records.some((record) => record.ok)) throw new Error(`the bot did not accept the ${event} delivery ${id}`);
  };

  // On shift first: the off-shift rule would otherwise find every case of the burst too.
  const shift = { id: SHIFT_ID, ...moderator, robloxId: '5550199', startedAt: Date.now() };
  await emit<EventOf<'shift.started'>>(
    'shift.started',
    { shift: { ...shift, endedAt: null, seconds: null } },
    shift.startedAt,
  );
  say(`${MODERATOR_NAME} clocks in on game server ${serverId}, then bans ${BURST} players within seconds`);

  const ban = async (index: number) => {
    await sleep(options.intervalMs);
    const at = Date.now();
    const created: EventOf<'case.created'>['data']['case'] = {
      number: FIRST_CASE + index,
      type: 'ban',
      status: 'active',
      target: { robloxId: String(7_310_000_000 + index), name: BANNED[index] ?? `player ${index}` },
      moderator,
      reason: 'Mass RDM at spawn',
      evidence: index === 0 ? `https://medal.tv/games/roblox/clips/${FIRST_CASE}` : null,
      inGame: true,
      createdAt: at,
      voidedAt: null,
      voidedBy: null,
    };
    await emit<EventOf<'case.created'>>('case.created', { case: created }, at);
  };
  for (let index = 0; index < BURST; index += 1) await ban(index);
  const alert = await alertListing(discord, channelId, BURST);
  say(`a conduct alert in #${OVERSIGHT_CHANNEL}: ${alert.embeds[0]?.title ?? ''}`);

  // One more ban within the window: the same alert grows, edited in place, never a second message.
  await ban(BURST);
  const grown = await alertListing(discord, channelId, BURST + 1);
  say(`the alert grows in place (one message): ${grown.embeds[0]?.title ?? ''}`);
  const endedAt = Date.now();
  const seconds = Math.round((endedAt - shift.startedAt) / 1000);
  await emit<EventOf<'shift.ended'>>('shift.ended', { shift: { ...shift, endedAt, seconds } }, endedAt);

  const evidence = await run('case', 'evidence', [commandOption.integer('number', FIRST_CASE)]);
  if (!evidence) throw new Error(`/case evidence number:${FIRST_CASE} had no answer`);
  options.onReply(evidence);
  const files = evidence.api.attachments.map((file) => file.filename).join(', ');
  say(
    `/case evidence number:${FIRST_CASE} → ${evidence.embeds[0]?.title ?? evidence.content}${files ? ` (file: ${files})` : ''}`,
  );
}

/** The conduct alert in the channel once it lists `cases` cases. */
async function alertListing(discord: FakeDiscord, channelId: string, cases: number): Promise<FakeMessage> {
  const deadline = Date.now() + ALERT_WAIT_MS;
  for (;;) {
    const alert = discord
      .messages(channelId)
      .find((message) => message.embeds[0]?.footer?.text?.startsWith(ALERT_FOOTER) === true);
    if (alert && (alert.embeds[0]?.description?.match(/^• /gm) ?? []).length === cases) return alert;
    if (Date.now() > deadline) throw new Error(`no conduct alert of ${cases} cases in #${OVERSIGHT_CHANNEL}`);
    await sleep(LOOK_EVERY_MS);
  }
}

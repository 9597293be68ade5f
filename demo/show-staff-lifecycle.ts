import { InteractionResponseType, PermissionFlagsBits } from 'discord.js';

import {
  buttonClick,
  chatInputCommand,
  commandOption,
  type CommandOptionValue,
  type FakeMessage,
  type Invoker,
  type RoleSpec,
} from '../fakes/discord/index.js';
import type { DemoSceneOptions } from './demo-scene.js';

/** The demo's staff member: asks for leave, then is promoted. */
const STAFF_MEMBER_NAME = 'Riley Banks';
/** The staff-manager role of /staff setup, held by the demo admin: Manage Roles, so they may give the ranks. */
const MANAGER_ROLE = 'Staff Managers';
/** The rank ladder of /staff ranks, lowest first. */
const RANKS = ['Cadet', 'Officer', 'Sergeant'] as const;
/** How long one command or click may take. */
const ANSWER_TIMEOUT_MS = 15_000;
const DAY_MS = 86_400_000;

/**
 * The roles this step needs, for the demo guild's role list. The fake numbers Staff 1, Admin 2 and the bot's role
 * 3, and puts the newer of two roles with one position below: so the bot's role is above all of these, the
 * managers' role above every rank, and Sergeant above Admin, Officer above Staff, Cadet at the bottom.
 */
export const STAFF_LIFECYCLE_ROLES: readonly RoleSpec[] = [
  { name: MANAGER_ROLE, permissions: PermissionFlagsBits.ManageRoles, position: 3, color: 0x9b59b6 },
  { name: 'Sergeant', position: 3, color: 0x3498db },
  { name: 'Officer', position: 2, color: 0x1abc9c },
  { name: 'Cadet', position: 1, color: 0x95a5a6 },
];

/** The UTC day `days` from now, as /leave request takes it (`2026-12-24`); the demo's leave zone is UTC. */
function dayFromNow(days: number): string {
  return utcDay(Date.now() + days * DAY_MS);
}

/** `2026-12-24`: the UTC day of a moment. */
function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * The staff lifecycle, after the duty views: the demo admin opens leave requests in #staff-log and makes it the
 * staff log with a ladder of ranks; a staff member asks for three days of leave from tomorrow; the admin approves
 * it with the card's Approve button (the card then says who approved it and loses its buttons) and promotes the
 * member one rank (a promotion card in #staff-log, their rank role changed). Once. A failure says one line and
 * leaves the rest of the demo running.
 */
export async function showStaffLifecycle(
  options: DemoSceneOptions & {
    /** #staff-log: leave requests and the staff log. */
    channelId: string;
  },
): Promise<void> {
  try {
    await playStaffLifecycle(options);
  } catch (error) {
    options.say(`the staff lifecycle stopped: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function playStaffLifecycle(options: Parameters<typeof showStaffLifecycle>[0]): Promise<void> {
  const { discord, guild, channelId, say } = options;
  // Days as the terminal reads them: Discord's `<t:…:D>` would show each reader's own date.
  const plain = (text: string) =>
    options.plain(text).replace(/<t:(\d+):D>/g, (_, seconds: string) => utcDay(Number(seconds) * 1000));
  const role = (name: string) => {
    const id = guild.roles[name];
    if (!id) throw new Error(`the demo guild has no @${name}`);
    return id;
  };
  const run = async (
    label: string,
    subcommand: [string, string],
    values: CommandOptionValue[],
    expected: RegExp,
    as: Invoker = 'admin',
  ) => {
    const [name, sub] = subcommand;
    const draft = chatInputCommand({ name, subcommand: sub, options: values, as, guildId: guild.id });
    const reply = (await discord.dispatchInteraction(draft, { timeoutMs: ANSWER_TIMEOUT_MS })).reply;
    const text = plain(reply?.content ?? '');
    if (!expected.test(text)) throw new Error(`${label} did not succeed; the bot answered: ${text || '(nothing)'}`);
    say(`${label} → ${text}`);
    return { text, reply };
  };

  // The admin may give the ranks (Manage Roles, above them), as the ladder's check asks of Discord.
  discord.grantRole(guild.id, discord.users.admin.id, role(MANAGER_ROLE));
  const member = discord.addMember(guild.id, {
    username: STAFF_MEMBER_NAME,
    roleIds: [guild.staffRoleId, role('Cadet')],
  });
  options.onMember(member, STAFF_MEMBER_NAME);

  await run(
    '/leave channel channel:#staff-log',
    ['leave', 'channel'],
    [commandOption.channel('channel', channelId)],
    /#staff-log/,
  );
  await run(
    `/staff setup manager-role:@${MANAGER_ROLE} log-channel:#staff-log`,
    ['staff', 'setup'],
    [commandOption.role('manager-role', role(MANAGER_ROLE)), commandOption.channel('log-channel', channelId)],
    /take staff actions/,
  );
  await run(
    `/staff ranks roles:${RANKS.map((name) => `@${name}`).join(' ')}`,
    ['staff', 'ranks'],
    [commandOption.string('roles', RANKS.map((name) => `<@&${role(name)}>`).join(' '))],
    /rank ladder/,
  );
  // /leave request is for the record's staff: the demo's staff hold @Staff.
  await run(
    '/record staff-role role:@Staff',
    ['record', 'staff-role'],
    [commandOption.role('role', guild.staffRoleId)],
    /Staff/,
  );

  const [from, to] = [dayFromNow(1), dayFromNow(3)];
  const asked = await run(
    `${STAFF_MEMBER_NAME} asks /leave request from:${from} to:${to} reason:family visit`,
    ['leave', 'request'],
    [
      commandOption.string('from', from),
      commandOption.string('to', to),
      commandOption.string('reason', 'family visit'),
    ],
    /request #\d+/,
    { userId: member },
  );
  const number = /request #(\d+)/.exec(asked.text)?.[1] ?? '';
  const footer = `Leave request #${number}`;
  const card = await discord.waitFor(
    () => discord.messages(channelId).find((message) => message.embeds[0]?.footer?.text === footer),
    ANSWER_TIMEOUT_MS,
    `the card of leave request #${number}`,
  );
  const approve = buttonOf(card, 'Approve');
  const approved = await discord.dispatchInteraction(
    buttonClick({ customId: approve, message: card, as: 'admin', guildId: guild.id }),
    { timeoutMs: ANSWER_TIMEOUT_MS },
  );
  const state = await discord.waitFor(
    () => {
      const shown = discord.messages(channelId).find((message) => message.id === card.id);
      const value = shown?.embeds[0]?.fields?.find((field) => field.name === 'State')?.value;
      return value?.startsWith('Approved') ? value : undefined;
    },
    ANSWER_TIMEOUT_MS,
    `leave request #${number} approved on its card`,
  );
  if (approved.callback.type !== InteractionResponseType.UpdateMessage)
    throw new Error(`approving leave request #${number} did not update its card`);
  say(`the admin approves leave request #${number} with its Approve button → the card says: ${plain(state)}`);

  const promoted = await run(
    `/staff promote member:@${STAFF_MEMBER_NAME} to:@Officer reason:Steady shifts and a clean record`,
    ['staff', 'promote'],
    [
      commandOption.user('member', member),
      commandOption.role('to', role('Officer')),
      commandOption.string('reason', 'Steady shifts and a clean record'),
    ],
    /^Promoted/,
  );
  if (promoted.reply) options.onReply(promoted.reply);
  // Their roles as Discord keeps them: the rank the bot gave, the one it took.
  const ranks = (discord.memberRoles(guild.id, member) ?? []).filter((id) => RANKS.some((name) => role(name) === id));
  say(`${STAFF_MEMBER_NAME}'s rank roles now: ${plain(ranks.map((id) => `<@&${id}>`).join(' ')) || 'none'}`);
}

/** The custom id of the button labelled `label` on a message. */
function buttonOf(message: FakeMessage, label: string): string {
  const button = (message.components as Array<{ components?: Array<{ label?: string; custom_id?: string }> }>)
    .flatMap((row) => row.components ?? [])
    .find((component) => component.label === label);
  if (!button?.custom_id) throw new Error(`no ${label} button on the card`);
  return button.custom_id;
}

import { PermissionFlagsBits } from 'discord.js';

/**
 * What the bot asks for when it is invited: every permission the features need in the channels they post to,
 * and nothing more (no Administrator, nothing to manage or moderate). The names are those Discord's settings show.
 * Not asked for, on purpose: Mention Everyone ("Mention @everyone, @here and All Roles"), which only a role that
 * is not mentionable needs to be pinged; an admin makes the pinged roles mentionable instead, or grants it by hand
 * (`/feed mention` says when it is needed). Nor Manage Roles, which only the optional on-duty role (/duty role)
 * needs: it would let every install manage roles for one feature most servers may not use, and it is not enough
 * on its own anyway (the bot's role joins a server at the bottom of the list, and Discord lets it give only the
 * roles below it), so the admin who sets the role grants it and moves the bot's role; /duty role checks both and
 * says which is missing.
 */
export const INVITE_PERMISSIONS = [
  // To see the feed and alert channels at all: without it every send there is refused with Missing Access.
  { bit: PermissionFlagsBits.ViewChannel, name: 'View Channel' },
  // To post events, cards and alerts.
  { bit: PermissionFlagsBits.SendMessages, name: 'Send Messages' },
  // Every event is an embed; without it Discord posts the message with its embeds stripped.
  { bit: PermissionFlagsBits.EmbedLinks, name: 'Embed Links' },
  // Discord refuses a reply without it: a voided case answers its case card, an unclaimed modcall's escalation
  // answers the modcall card.
  { bit: PermissionFlagsBits.ReadMessageHistory, name: 'Read Message History' },
  // The weekly digest carries its chart as an image file (/digest set checks it in its channel).
  { bit: PermissionFlagsBits.AttachFiles, name: 'Attach Files' },
  // Session threads (/feed threads): a thread opened from each session's card, and its log and report posted in
  // it (Send Messages does not cover threads). /feed threads checks both where session cards go.
  { bit: PermissionFlagsBits.CreatePublicThreads, name: 'Create Public Threads' },
  { bit: PermissionFlagsBits.SendMessagesInThreads, name: 'Send Messages in Threads' },
] as const;

/** `bot` adds the bot itself; `applications.commands` lets the server use its slash commands. */
export const INVITE_SCOPES = ['bot', 'applications.commands'] as const;

/** The permissions integer of the invite: the bits of {@link INVITE_PERMISSIONS} together. */
export function invitePermissions(): bigint {
  return INVITE_PERMISSIONS.reduce((bits, permission) => bits | permission.bit, 0n);
}

/** The address that adds the bot, with its slash commands and {@link INVITE_PERMISSIONS}, to a server. */
export function inviteUrl(applicationId: string): string {
  const query = [
    `client_id=${encodeURIComponent(applicationId)}`,
    `scope=${INVITE_SCOPES.map(encodeURIComponent).join('%20')}`,
    `permissions=${invitePermissions()}`,
  ];
  return `https://discord.com/oauth2/authorize?${query.join('&')}`;
}

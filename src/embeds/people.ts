import { hyperlink, userMention } from 'discord.js';

import { isSnowflake } from '../discord/snowflake.js';
import { formatInlineCode, formatName } from './format.js';

/** Roblox user ids are 64-bit integers; the bound also keeps a hostile id from blowing up the link. */
const ROBLOX_ID = /^[0-9]{1,19}$/;
/** Ids that are not what we expect are shown as code, cut to this. */
const MAX_RAW_ID_LENGTH = 40;

/** The public profile page of a Roblox user. */
export function robloxProfileUrl(robloxId: string): string {
  return `https://www.roblox.com/users/${robloxId}/profile`;
}

/** A Roblox user as a link to their profile; as plain text with the raw id when the id is not digits. */
export function formatRobloxUser(user: { robloxId: string; name: string }): string {
  const name = formatName(user.name);
  if (ROBLOX_ID.test(user.robloxId)) return hyperlink(name, robloxProfileUrl(user.robloxId));
  return `${name} (Roblox ID ${formatInlineCode(user.robloxId, MAX_RAW_ID_LENGTH)})`;
}

/**
 * A Discord user as `<@id> (name)`. The mention renders as the member (it never pings: allowed_mentions
 * parses nothing); an id that is not a snowflake would render as junk, so it is shown as code instead.
 */
export function formatDiscordUser(user: { discordId: string; name: string }): string {
  const name = formatName(user.name);
  if (isSnowflake(user.discordId)) return `${userMention(user.discordId)} (${name})`;
  return `${name} (ID ${formatInlineCode(user.discordId, MAX_RAW_ID_LENGTH)})`;
}

/** A bare identifier of a person (e.g. who voided a case): a mention when it is a snowflake, else text. */
export function formatPersonId(id: string): string {
  return isSnowflake(id) ? userMention(id) : formatName(id);
}

/**
 * A staff member known by both accounts (a shift): `<@id> · [name](roblox profile)`, the mention for Discord
 * and the profile link for looking them up in game.
 */
export function formatStaffMember(staff: { discordId: string; name: string; robloxId: string }): string {
  const roblox = formatRobloxUser(staff);
  if (isSnowflake(staff.discordId)) return `${userMention(staff.discordId)} · ${roblox}`;
  return `${roblox} (Discord ID ${formatInlineCode(staff.discordId, MAX_RAW_ID_LENGTH)})`;
}

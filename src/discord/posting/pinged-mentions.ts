import type { APIAllowedMentions } from 'discord.js';

/** `<@&id>`: a role named in a message's content. */
const ROLE_MENTION = /<@&(\d+)>/g;
/** `<@id>` or `<@!id>`: a user named in a message's content. */
const USER_MENTION = /<@!?(\d+)>/g;

/**
 * The allowed mentions of a message as exactly who it pings: the roles and users `allowed` lists, each kept only where
 * `content` names it. What a body allows but does not name would ping nobody today, yet would let an edit, or a later
 * change of its text, ping them; and a message's allowed_mentions are read (tests, Discord's own tools) as whom it
 * pinged. `parse` and `replied_user` are kept as they are (the bot's messages parse nothing).
 */
export function pingedMentions(content: string | undefined, allowed: APIAllowedMentions): APIAllowedMentions {
  const text = content ?? '';
  const named = (pattern: RegExp) => new Set([...text.matchAll(pattern)].map((match) => match[1]));
  const { roles, users, ...rest } = allowed;
  const keptRoles = (roles ?? []).filter((id) => named(ROLE_MENTION).has(id));
  const keptUsers = (users ?? []).filter((id) => named(USER_MENTION).has(id));
  return {
    ...rest,
    ...(keptRoles.length > 0 ? { roles: keptRoles } : {}),
    ...(keptUsers.length > 0 ? { users: keptUsers } : {}),
  };
}

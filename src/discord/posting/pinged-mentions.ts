import type { APIAllowedMentions } from 'discord.js';

/** `<@&id>`: a role named in a message's content. */
const ROLE_MENTION = /<@&(\d+)>/g;
/** `<@id>` or `<@!id>`: a user named in a message's content. */
const USER_MENTION = /<@!?(\d+)>/g;

/**
 * A message's allowed mentions as exactly whom it pings: of the roles and users `allowed` lists, those `content`
 * names. One it allows but does not name pings nobody now, yet says the message may ping them (and would let an
 * edit of its text do so): the bot allows only the mentions it makes. `parse` and `replied_user` are kept as they
 * are (the bot's messages parse nothing).
 */
export function pingedMentions(content: string | undefined, allowed: APIAllowedMentions): APIAllowedMentions {
  const text = content ?? '';
  const namedRoles = new Set([...text.matchAll(ROLE_MENTION)].map((match) => match[1]));
  const namedUsers = new Set([...text.matchAll(USER_MENTION)].map((match) => match[1]));
  const { roles, users, ...rest } = allowed;
  const keptRoles = (roles ?? []).filter((id) => namedRoles.has(id));
  const keptUsers = (users ?? []).filter((id) => namedUsers.has(id));
  return {
    ...rest,
    ...(keptRoles.length > 0 ? { roles: keptRoles } : {}),
    ...(keptUsers.length > 0 ? { users: keptUsers } : {}),
  };
}

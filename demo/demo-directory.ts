import type { AddedGuild, FakeDiscord } from '../fakes/discord/index.js';
import type { ServiceEvent } from '../src/upstream/schemas.js';
import type { MentionDirectory } from './preview/markdown.js';

/**
 * Names for mentions, as Discord's client would know them: the guild's channels and roles, the people of the
 * fake guild, and the staff of the stories the demo plays (the game community's staff are members of its
 * Discord, so their mentions render as names).
 */
export class DemoDirectory implements MentionDirectory {
  readonly #users = new Map<string, string>();
  readonly #roles = new Map<string, { name: string; colour: number }>();
  readonly #channels = new Map<string, string>();

  constructor(discord: FakeDiscord, guild: AddedGuild, roleColours: Readonly<Record<string, number>>) {
    for (const [name, id] of Object.entries(guild.channels)) this.#channels.set(id, name);
    for (const [name, id] of Object.entries(guild.roles)) this.#roles.set(id, { name, colour: roleColours[name] ?? 0 });
    this.#roles.set(guild.staffRoleId, { name: 'Staff', colour: 0 });
    this.#roles.set(guild.adminRoleId, { name: 'Admin', colour: 0 });
    this.#roles.set(guild.botRoleId, { name: discord.bot.username, colour: 0 });
    for (const user of [discord.bot, discord.users.owner, discord.users.admin, discord.users.member]) {
      this.#users.set(user.id, user.global_name ?? user.username);
    }
  }

  /** Remembers a member the demo added (the moderator who claims a modcall). */
  learnUser(id: string, name: string): void {
    this.#users.set(id, name);
  }

  userName(id: string): string | undefined {
    return this.#users.get(id);
  }

  role(id: string): { name: string; colour: number } | undefined {
    return this.#roles.get(id);
  }

  channelName(id: string): string | undefined {
    return this.#channels.get(id);
  }

  /** Remembers the Discord accounts an event names (moderators, session hosts, staff on shift). */
  learnFrom(event: ServiceEvent): void {
    switch (event.event) {
      case 'case.created':
        this.#users.set(event.data.case.moderator.discordId, event.data.case.moderator.name);
        return;
      case 'session.started':
        this.#users.set(event.data.session.startedBy.discordId, event.data.session.startedBy.name);
        return;
      case 'shift.started':
      case 'shift.ended':
        this.#users.set(event.data.shift.discordId, event.data.shift.name);
        return;
      case 'case.voided':
      case 'session.ended':
      case 'modcall':
        // Name no Discord account the demo has not met already.
        return;
    }
  }

  /** A bot reply for a terminal: mentions become `#channel`, `@Role`, `@user`. */
  plain(text: string): string {
    return text
      .replace(/<#([0-9]+)>/g, (whole, id: string) => (this.#channels.has(id) ? `#${this.#channels.get(id)}` : whole))
      .replace(/<@&([0-9]+)>/g, (whole, id: string) => (this.#roles.has(id) ? `@${this.#roles.get(id)?.name}` : whole))
      .replace(/<@!?([0-9]+)>/g, (whole, id: string) => (this.#users.has(id) ? `@${this.#users.get(id)}` : whole))
      .replace(/<t:([0-9]+):R>/g, 'just now')
      .replace(/`/g, '');
  }
}

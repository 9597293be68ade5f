/**
 * Application commands registered through the bulk-overwrite routes, global and per guild.
 */
import { ApplicationCommandType, type APIApplicationCommand } from 'discord.js';

type CommandBody = Readonly<Record<string, unknown>> & { readonly name: string };

/** The fake's registered commands. */
export class CommandStore {
  readonly #global: APIApplicationCommand[] = [];
  readonly #byGuild = new Map<string, APIApplicationCommand[]>();
  #version = 0n;

  constructor(
    private readonly nextId: () => string,
    private readonly applicationId: string,
  ) {}

  /**
   * Replaces the commands of a scope (global when `guildId` is undefined), as `PUT .../commands` does: commands
   * keep their id when a command of the same name and type existed, like Discord's bulk overwrite.
   */
  overwrite(guildId: string | undefined, bodies: readonly CommandBody[]): APIApplicationCommand[] {
    const previous = this.list(guildId);
    const next = bodies.map((body) => {
      const type = (body['type'] as ApplicationCommandType | null | undefined) ?? ApplicationCommandType.ChatInput;
      const existing = previous.find((command) => command.name === body.name && command.type === type);
      this.#version += 1n;
      const defaultPermissions = body['default_member_permissions'];
      return {
        ...body,
        id: existing?.id ?? this.nextId(),
        application_id: this.applicationId,
        version: this.#version.toString(),
        type,
        name: body.name,
        description: typeof body['description'] === 'string' ? body['description'] : '',
        // Discord answers permissions as a string, whatever number or string it was given.
        default_member_permissions:
          typeof defaultPermissions === 'string' || typeof defaultPermissions === 'number'
            ? String(defaultPermissions)
            : null,
        nsfw: body['nsfw'] === true,
        ...(guildId === undefined ? {} : { guild_id: guildId }),
      };
    });
    if (guildId === undefined) this.#global.splice(0, this.#global.length, ...next);
    else this.#byGuild.set(guildId, next);
    return next;
  }

  /** The commands of a scope (global when `guildId` is undefined). */
  list(guildId: string | undefined): APIApplicationCommand[] {
    return [...(guildId === undefined ? this.#global : (this.#byGuild.get(guildId) ?? []))];
  }

  /** The command an interaction for `name` refers to: the guild's own first, then the global one. */
  find(name: string, guildId: string | undefined): APIApplicationCommand | undefined {
    const inGuild = guildId === undefined ? undefined : this.#byGuild.get(guildId)?.find((c) => c.name === name);
    return inGuild ?? this.#global.find((c) => c.name === name);
  }
}

/** One part of one session's thread: the log's messages or the report, by the session's server and id. */
interface PartOf {
  server: string;
  sessionId: number;
  part: string;
}

/**
 * What each thread part's message showed last, per guild, so an update that changes nothing sends nothing. Kept
 * only for threads followed: a session let go, or a guild forgotten, drops its entries.
 */
export class ShownParts {
  private readonly byGuild = new Map<string, Map<string, string>>();

  /** Whether the part's message shows `content` already. */
  shows(guildId: string, part: PartOf, content: string): boolean {
    return this.byGuild.get(guildId)?.get(keyOf(part)) === content;
  }

  remember(guildId: string, part: PartOf, content: string): void {
    let shown = this.byGuild.get(guildId);
    if (!shown) {
      shown = new Map();
      this.byGuild.set(guildId, shown);
    }
    shown.set(keyOf(part), content);
  }

  /** The session's thread is no longer followed. */
  forgetSession(guildId: string, session: { server: string; sessionId: number }): void {
    const shown = this.byGuild.get(guildId);
    if (!shown) return;
    const prefix = `${session.server}:${session.sessionId}:`;
    for (const key of shown.keys()) if (key.startsWith(prefix)) shown.delete(key);
    if (shown.size === 0) this.byGuild.delete(guildId);
  }

  forgetGuild(guildId: string): void {
    this.byGuild.delete(guildId);
  }
}

function keyOf({ server, sessionId, part }: PartOf): string {
  return `${server}:${sessionId}:${part}`;
}

/** One line of a member's /staff history timeline: when, and what (Markdown, mentions as `<@id>`). */
export interface TimelineEntry {
  at: number;
  line: string;
}

/**
 * A feature that adds to /staff history's timeline (leave, later): what it kept about a member, each entry with
 * its time. Handed to the staff actions feature by the features' list, so the history needs no import of it.
 */
export interface TimelineSource {
  /** Names the source in logs when it fails (its entries are then left out, and the history says so). */
  readonly name: string;
  entriesOf(guildId: string, memberId: string): Promise<TimelineEntry[]>;
}

/** A guild's choices of /duty. */
export interface DutySettings {
  guildId: string;
  /** The channel of the on-duty board; null: no board. */
  boardChannelId: string | null;
  /** The board's message in that channel; null until it is posted (or after it was found deleted). */
  boardMessageId: string | null;
  /** The role the members on shift are given; null: none. */
  roleId: string | null;
  /**
   * The member who chose that role (/duty role): it is given only while they could give it themselves. Null with
   * no role, or for a role chosen before this was kept.
   */
  roleSetBy: string | null;
}

/** A member the bot gave a role to for a shift, until it takes it back. */
export interface RoleHolder {
  memberId: string;
  roleId: string;
  /** When Discord confirmed it; null while the bot's request has no answer yet (the member may hold it or not). */
  givenAt: number | null;
}

/** A guild's /duty minimum: the least staff on shift while a session runs, and how long a shortfall may last. */
export interface CoverageMinimum {
  staff: number;
  afterMinutes: number;
}

/** A guild's coverage guard: its minimum (null: no guard), and since when it has been short (null: covered). */
export interface CoverageSettings {
  guildId: string;
  minimum: CoverageMinimum | null;
  uncoveredSince: number | null;
}

/** The duty feature's port: each guild's on-duty board and on-shift role. */
export interface DutyStore {
  /** The guild's choices (all null for a guild that made none). */
  settingsOf(guildId: string): Promise<DutySettings>;
  /**
   * Every guild with a board, a role, or members holding a role the bot gave (a role turned off, not yet taken
   * back): what the duty feature looks at when it starts.
   */
  listConfigured(): Promise<DutySettings[]>;
  /**
   * Sets (or, with null, stops) the guild's board; its message id, and a post under way, are forgotten either way
   * (a new one is posted).
   */
  setBoardChannel(guildId: string, channelId: string | null): Promise<void>;
  /**
   * Notes the board's message (its post is no longer under way), only while the board is still in `channelId` (a
   * /duty board to another channel meanwhile wins); null forgets it. True when it was noted.
   */
  setBoardMessage(guildId: string, channelId: string, messageId: string | null): Promise<boolean>;
  /**
   * Writes down, before the board's post is sent, that it is under way in `channelId` since `now`, unless a try
   * of the same post was written down before (it is until its id is noted, or the board moves). Resolves with when
   * the first try was written down; undefined when the board is no longer in that channel.
   */
  askBoardPost(guildId: string, channelId: string, now: number): Promise<number | undefined>;
  /** Sets (or, with null, stops) the role given to the members on shift, and who chose it. */
  setRole(guildId: string, roleId: string | null, setBy: string | null): Promise<void>;
  /** The members the bot gave a role to in the guild and has not taken it back from, whatever the role. */
  roleHoldersOf(guildId: string): Promise<RoleHolder[]>;
  /**
   * Notes that the member holds the role because of the bot: with `givenAt` null before the bot asks Discord (so
   * a crash before the answer still leaves someone to take it from), then with Discord's confirmation.
   */
  noteRoleHolder(guildId: string, holder: RoleHolder): Promise<void>;
  /** The member no longer holds the role because of the bot (taken back, or left the server). */
  forgetRoleHolder(guildId: string, memberId: string, roleId: string): Promise<void>;
  /** The guild's coverage guard (minimum null for a guild that set none). */
  coverageOf(guildId: string): Promise<CoverageSettings>;
  /** Every guild with a minimum: what the coverage guard looks at when it starts. */
  listGuarded(): Promise<CoverageSettings[]>;
  /** Sets (or, with null, stops) the guild's minimum; either way the guild is counted as covered until looked at. */
  setMinimum(guildId: string, minimum: CoverageMinimum | null): Promise<void>;
  /** Notes since when the guild has been short of its minimum (null: covered), only while it has a minimum. */
  setUncoveredSince(guildId: string, since: number | null): Promise<void>;
}

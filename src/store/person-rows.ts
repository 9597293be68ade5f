/**
 * Whom forgetting a person (`/record forget`) and `/record mine` are about: a player (their Roblox id) or a
 * member (their Discord id), in one guild. A player's latest name, when the record has one, is matched too where a
 * row keeps names as text (a delivery's body, a document).
 */
export interface Person {
  guildId: string;
  kind: PersonKind;
  id: string;
  /** The player's name as the record has it (absent: the id is matched for it). */
  name?: string;
}

export type PersonKind = 'player' | 'member';

/**
 * What a statement of {@link PersonRows} binds at each `?`, in order: the guild's id, the person's id, the
 * player's name (the id when none), or a token new to each forgetting (`forgotten-<uuid>`, for a key column that
 * cannot be empty and must stay unique).
 */
export type PersonBind = 'guild' | 'person' | 'name' | 'token';

/** A statement of {@link PersonRows}: its text (`?` for each value) and what it binds, in order. */
export interface PersonStatement {
  sql: string;
  binds: readonly PersonBind[];
}

/**
 * One kind of row that names a person, as a store module (or the kernel) declares it, the way it declares what
 * forgetting a guild deletes: how `/record mine` lists them and forgetting counts them (`select`: an `at` column,
 * milliseconds or null, then whatever the member may see of the row), and the statements that delete or
 * anonymise them, run with every module's in one transaction. A feature added later with rows about people adds its
 * own to its module's `personRows`, and both commands reach them.
 */
export interface PersonRows {
  /** Whose rows: a player's or a member's. */
  of: PersonKind;
  /** What the confirmation, `/record mine` and the audit line call them ("cases as moderator"). */
  what: string;
  /** Whether forgetting deletes them or keeps them for others' figures with the person's part gone. */
  forgetting: 'deleted' | 'anonymised';
  select: PersonStatement;
  forget: readonly PersonStatement[];
}

/** How a forgotten member is named where a row they were part of stays (a case they made): never their id. */
export const FORMER_MEMBER = 'a former member';
/** How a forgotten player is named where a row they were part of stays (a moderator's case about them). */
export const FORMER_PLAYER = 'a former player';

/** The values a statement binds for `person`. */
export function bindPerson(statement: PersonStatement, person: Person, token: string): unknown[] {
  return statement.binds.map((bind) => {
    switch (bind) {
      case 'guild':
        return person.guildId;
      case 'person':
        return person.id;
      case 'name':
        return person.name ?? person.id;
      case 'token':
        return token;
    }
  });
}

/**
 * The fields of a database error that quote the rows it refused: PostgreSQL's `detail` ("Failing row contains
 * (…)", "Key (guild_id, player_id)=(…) already exists"), its `where` and `internalQuery` (a function's statement
 * and context), its `hint`; and node-postgres's bound `parameters` where a wrapper keeps them. None of them reaches a
 * log line, an answer or the store: they would copy a player's name or a reason there.
 */
export const ROW_VALUE_FIELDS: readonly string[] = ['detail', 'where', 'internalQuery', 'hint', 'parameters'];

/**
 * A value PostgreSQL quotes at the end of a message (`invalid input syntax for type bigint: "Bob"`, `invalid input
 * value for enum …: "x"`): the value a statement was given. Names of tables, columns and constraints are quoted
 * inside the message, never after its last colon.
 */
const QUOTED_VALUE = /(: )"(?:[^"]|"")*"(?=$|\n)/gm;

/** `text` (an error's message or stack) with any value the database quoted in it replaced by `[value]`. */
export function withoutRowValues(text: string): string {
  return text.replace(QUOTED_VALUE, '$1[value]');
}

import type { Engine, Tables } from './tables.js';

/**
 * A column list written once: the text a statement selects (`seq, hook_id, …`) and, for the compiler, the table
 * and the names it holds, so the row a statement reads is computed from what it selects (see {@link RowOf}).
 */
export interface Columns<Table extends keyof Tables = keyof Tables, Name extends keyof Tables[Table] = never> {
  readonly table: Table;
  readonly text: string;
  /** Phantom: the names, for the compiler only. */
  readonly names?: Name;
}

/** The columns `names` of `table` (tables.ts, generated from the schema), in the order given. */
export function columns<Table extends keyof Tables, const Name extends keyof Tables[Table] & string>(
  table: Table,
  ...names: Name[]
): Columns<Table, Name> {
  return { table, text: names.join(', ') };
}

/**
 * The row a statement selecting `C` reads: those columns of the table's generated type, as engine `E` returns
 * them (either engine, unless named: a boolean is then 0, 1 or a boolean, a JSON document its text or its value).
 */
export type RowOf<C, E extends Engine = Engine> =
  C extends Columns<infer Table, infer Name> ? Pick<Tables<E>[Table], Name & keyof Tables<E>[Table]> : never;

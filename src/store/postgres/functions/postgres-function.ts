/** A PL/pgSQL function of the schema: its body in one file, applied again whenever it changes. */
export interface PostgresFunction {
  /** What `bridge_function` records its hash under. */
  readonly name: string;
  /** Its name and argument types, as `to_regprocedure` finds it ("bridge_accept_placed(jsonb)"). */
  readonly signature: string;
  /** `CREATE OR REPLACE FUNCTION …`: the whole definition. */
  readonly sql: string;
}

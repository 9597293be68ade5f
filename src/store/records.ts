/**
 * Documents of the features built beside the feed (the developer API's records, for one): JSON values by
 * (kind, key), each changed atomically (a read-modify-write of one document never interleaves with another of
 * the same document, in any process). The feature parses what it reads with its own schema.
 *
 * A document that belongs to one guild is keyed by the guild's id, or by the guild's id, `:` and more
 * (`<guildId>:<appId>`): that is how forgetting a guild finds them, whatever their kind.
 */
export interface RecordStore {
  get(kind: string, key: string): Promise<unknown>;
  /**
   * Applies `change` to the stored value (undefined when there is none) and stores what it returns, in one
   * transaction; returns the stored value. `change` must be synchronous and free of side effects: it may run again.
   */
  update(kind: string, key: string, change: (current: unknown) => unknown): Promise<unknown>;
  delete(kind: string, key: string): Promise<void>;
  /** Every document of a kind, by key order. */
  list(kind: string): Promise<Array<{ key: string; value: unknown }>>;
  /** The kinds that have documents, in order (migrate-store copies every kind, whichever feature wrote it). */
  kinds(): Promise<string[]>;
}

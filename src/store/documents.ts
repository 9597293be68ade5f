/** One stored document, with its time when it has one. */
export interface StoredDocument {
  key: string;
  value: unknown;
  /** The document's indexed time (see {@link DocumentStore.update}); absent when it has none. */
  at?: number;
}

/**
 * Gives a document its indexed time from the value about to be stored: when it falls due, or when it was made
 * (what {@link DocumentStore.listDue} and {@link DocumentStore.sweepBefore} read); null for none.
 */
export type TimeOf = (value: unknown) => number | null;

/**
 * Documents of the features built beside the feed (the developer API's records, for one): JSON values by
 * (kind, key), each changed atomically (a read-modify-write of one document never interleaves with another of
 * the same document, in any process). The feature parses what it reads with its own schema. A document may carry
 * a time, indexed per kind, so a timer reads only what is due and a sweep deletes only what is old, in slices.
 *
 * A document that belongs to one guild is keyed by the guild's id, or by the guild's id, `:` and more
 * (`<guildId>:<appId>`): that is how forgetting a guild finds them, whatever their kind.
 *
 * They are kept in the table `record`, a name from before the community record: the table keeps it because a
 * rename would fail every query of the previous version's processes still running during a rolling restart on
 * PostgreSQL. In the code they are documents (`store.documents`).
 */
export interface DocumentStore {
  get(kind: string, key: string): Promise<unknown>;
  /**
   * Applies `change` to the stored value (undefined when there is none) and stores what it returns, in one
   * transaction; returns the stored value. A change that returns undefined deletes the document. `timeOf` gives
   * the stored value its time (none without it). `change` must be synchronous and free of side effects: it may
   * run again.
   */
  update(kind: string, key: string, change: (current: unknown) => unknown, timeOf?: TimeOf): Promise<unknown>;
  /**
   * Stores each document (its value and time; no time without `at`) whatever was there, in one statement and
   * without a lock: for values that do not depend on the ones they replace. The feed records its cards' places
   * this way after each post, where an update per card cost five round trips to PostgreSQL. Of two documents
   * with the same key, the later stands.
   */
  put(kind: string, documents: readonly StoredDocument[]): Promise<void>;
  /** The values of those of `keys` that have a document, in one read. */
  getAll(kind: string, keys: readonly string[]): Promise<Map<string, unknown>>;
  delete(kind: string, key: string): Promise<void>;
  /** Every document of a kind, by key order (migrate-store: the times are copied with them). */
  list(kind: string): Promise<StoredDocument[]>;
  /** Up to `limit` documents of a kind whose time is at or before `until`, earliest first (then by key). */
  listDue(kind: string, until: number, limit: number): Promise<StoredDocument[]>;
  /**
   * Deletes up to `limit` documents of a kind whose time is before `before`, in one statement; returns how many.
   * A sweep repeats it, yielding between slices, until fewer than `limit` went.
   */
  sweepBefore(kind: string, before: number, limit: number): Promise<number>;
  /** The kinds that have documents, in order (migrate-store copies every kind, whichever feature wrote it). */
  kinds(): Promise<string[]>;
}

import type { DocumentStore, StoredDocument, TimeOf } from '../../src/store/documents.js';

/**
 * A real record store whose reads of one kind reject while `failing` says so, as a store does when its disk
 * or its database is briefly unavailable; everything else goes to the store as it is.
 */
export function failReadsOf(
  records: DocumentStore,
  kind: string,
  failing: (key: string) => boolean,
): DocumentStore & { failures: number } {
  const wrapper = {
    failures: 0,
    get: async (wanted: string, key: string) => {
      if (wanted === kind && failing(key)) {
        wrapper.failures += 1;
        throw new Error('SQLITE_BUSY: database is locked');
      }
      return records.get(wanted, key);
    },
    update: (wanted: string, key: string, change: (current: unknown) => unknown, timeOf?: TimeOf) =>
      records.update(wanted, key, change, timeOf),
    put: (wanted: string, documents: readonly StoredDocument[]) => records.put(wanted, documents),
    getAll: async (wanted: string, keys: readonly string[]) => {
      if (wanted === kind && keys.some(failing)) {
        wrapper.failures += 1;
        throw new Error('SQLITE_BUSY: database is locked');
      }
      return records.getAll(wanted, keys);
    },
    delete: (wanted: string, key: string) => records.delete(wanted, key),
    list: (wanted: string) => records.list(wanted),
    listDue: (wanted: string, until: number, limit: number) => records.listDue(wanted, until, limit),
    sweepBefore: (wanted: string, before: number, limit: number) => records.sweepBefore(wanted, before, limit),
    kinds: () => records.kinds(),
  };
  return wrapper;
}

/**
 * A real record store whose sweep of one kind rejects, as a statement the database refuses would (a row it cannot
 * delete); every other kind's sweep, and everything else, goes to the store as it is.
 */
export function failSweepsOf(records: DocumentStore, kind: string): DocumentStore {
  return {
    get: (wanted, key) => records.get(wanted, key),
    update: (wanted, key, change, timeOf) => records.update(wanted, key, change, timeOf),
    put: (wanted, documents) => records.put(wanted, documents),
    getAll: (wanted, keys) => records.getAll(wanted, keys),
    delete: (wanted, key) => records.delete(wanted, key),
    list: (wanted) => records.list(wanted),
    listDue: (wanted, until, limit) => records.listDue(wanted, until, limit),
    sweepBefore: (wanted, before, limit) =>
      wanted === kind
        ? Promise.reject(new Error(`the test refuses to delete a ${kind} document`))
        : records.sweepBefore(wanted, before, limit),
    kinds: () => records.kinds(),
  };
}

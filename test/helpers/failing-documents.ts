import type { DocumentStore, StoredDocument, TimeOf } from '../../src/store/documents.js';

/**
 * A real document store whose reads of one kind reject while `failing` says so, as a store does when its disk
 * or its database is briefly unavailable; everything else goes to the store as it is.
 */
export function failReadsOf(
  documents: DocumentStore,
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
      return documents.get(wanted, key);
    },
    update: (wanted: string, key: string, change: (current: unknown) => unknown, timeOf?: TimeOf) =>
      documents.update(wanted, key, change, timeOf),
    put: (wanted: string, written: readonly StoredDocument[]) => documents.put(wanted, written),
    getAll: async (wanted: string, keys: readonly string[]) => {
      if (wanted === kind && keys.some(failing)) {
        wrapper.failures += 1;
        throw new Error('SQLITE_BUSY: database is locked');
      }
      return documents.getAll(wanted, keys);
    },
    delete: (wanted: string, key: string) => documents.delete(wanted, key),
    list: (wanted: string) => documents.list(wanted),
    listDue: (wanted: string, until: number, limit: number) => documents.listDue(wanted, until, limit),
    sweepBefore: (wanted: string, before: number, limit: number) => documents.sweepBefore(wanted, before, limit),
    kinds: () => documents.kinds(),
  };
  return wrapper;
}

/**
 * A real document store whose sweep of one kind rejects, as a statement the database refuses would (a row it cannot
 * delete); every other kind's sweep, and everything else, goes to the store as it is.
 */
export function failSweepsOf(documents: DocumentStore, kind: string): DocumentStore {
  return {
    get: (wanted, key) => documents.get(wanted, key),
    update: (wanted, key, change, timeOf) => documents.update(wanted, key, change, timeOf),
    put: (wanted, written) => documents.put(wanted, written),
    getAll: (wanted, keys) => documents.getAll(wanted, keys),
    delete: (wanted, key) => documents.delete(wanted, key),
    list: (wanted) => documents.list(wanted),
    listDue: (wanted, until, limit) => documents.listDue(wanted, until, limit),
    sweepBefore: (wanted, before, limit) =>
      wanted === kind
        ? Promise.reject(new Error(`the test refuses to delete a ${kind} document`))
        : documents.sweepBefore(wanted, before, limit),
    kinds: () => documents.kinds(),
  };
}

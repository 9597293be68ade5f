/**
 * Runs async work one at a time per key: a read-modify-write of one record never interleaves with another of
 * the same record (two interactions at once, or an interaction and the poller). Keys with nothing queued are
 * forgotten, so the map holds only keys in use.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

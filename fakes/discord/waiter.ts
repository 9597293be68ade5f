/**
 * Lets tests wait for the fake to reach a state, without polling loops or fixed sleeps.
 */

/** Thrown when {@link ChangeNotifier.waitFor} runs out of time; the message says what was awaited and what was seen. */
export class FakeDiscordTimeoutError extends Error {
  override readonly name = 'FakeDiscordTimeoutError';
}

interface Waiter {
  check(): void;
  fail(error: Error): void;
}

/** What a probe answers: the awaited value, or `undefined`/`false` while it is not there yet. */
type Probed<T> = T | undefined | false;

/** How often a pending condition is also re-checked, for conditions on state outside the fake (a client's). */
const POLL_INTERVAL_MS = 20;

/**
 * Re-evaluates pending conditions whenever the fake's state changes (a request, a message, a callback, a
 * gateway event), so a wait resolves in the same tick as the change that satisfies it; and every 20 ms, so a
 * condition may also look at what the client under test did with an answer.
 */
export class ChangeNotifier {
  readonly #waiters = new Set<Waiter>();

  /** Tells every pending wait that something changed. */
  notify(): void {
    for (const waiter of [...this.#waiters]) waiter.check();
  }

  /**
   * Resolves with the first truthy value of `probe`, checked now, after every change and every 20 ms.
   *
   * @param probe - Returns the awaited value, or `undefined`/`false` while it is not there yet; it may be async
   *   (a store read), and is then never run twice at once.
   * @param timeoutMs - Rejects with {@link FakeDiscordTimeoutError} after this long.
   * @param describe - Describes the wait and the current state, for the timeout message.
   */
  waitFor<T>(probe: () => Probed<T> | Promise<Probed<T>>, timeoutMs: number, describe: () => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let probing = false;
      let done = false;
      const settle = (value: Probed<T>) => {
        if (done || value === undefined || value === false) return;
        finish();
        resolve(value);
      };
      const refuse = (error: unknown) => {
        if (done) return;
        finish();
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      const waiter: Waiter = {
        check: () => {
          if (probing || done) return;
          let value: Probed<T> | Promise<Probed<T>>;
          try {
            value = probe();
          } catch (error) {
            refuse(error);
            return;
          }
          if (!(value instanceof Promise)) {
            settle(value);
            return;
          }
          probing = true;
          value.then(settle, refuse).finally(() => {
            probing = false;
          });
        },
        fail: (error) => {
          finish();
          reject(error);
        },
      };
      const timer = setTimeout(
        () => waiter.fail(new FakeDiscordTimeoutError(`Timed out after ${timeoutMs} ms: ${describe()}`)),
        timeoutMs,
      );
      const poll = setInterval(() => waiter.check(), POLL_INTERVAL_MS);
      const finish = (): void => {
        done = true;
        clearTimeout(timer);
        clearInterval(poll);
        this.#waiters.delete(waiter);
      };
      this.#waiters.add(waiter);
      waiter.check();
    });
  }

  /** Rejects every pending wait, e.g. when the fake closes. */
  failAll(error: Error): void {
    for (const waiter of [...this.#waiters]) waiter.fail(error);
  }
}

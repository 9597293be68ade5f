/**
 * What /healthz says of the store: failing from the first failed operation of the feed (a lane's pass) until one
 * succeeds again (a lane's pass, or the worker's reading of the channels with work). The intake's own failures
 * answer the service 500 and are counted by the health alerts.
 */
export class StoreHealth {
  private failingSince: number | undefined;

  constructor(private readonly clock: () => number) {}

  /** An operation's outcome: an error starts the failing period, success ends it. */
  note(error: unknown): void {
    if (error === undefined) this.failingSince = undefined;
    else this.failingSince ??= this.clock();
  }

  /** Since when the store fails, while it does. */
  get since(): number | undefined {
    return this.failingSince;
  }
}

import { afterEach, beforeEach, expect } from 'vitest';

import type { NewDelivery } from '../../src/store/deliveries.js';
import type { StoreModule } from '../../src/store/store-module.js';
import type { Store } from '../../src/store/store.js';

/** What the contract needs of an engine: a store on one database, opened again, and a way to make writes fail. */
export interface StoreUnderTest {
  /** Opens a store on the engine's database (the same one each time within a test), with every feature's module. */
  open(clock: () => number): Promise<Store>;
  /** Opens a store on the same database with the store modules given. */
  openWith(modules: readonly StoreModule[], clock: () => number): Promise<Store>;
  /** Makes every new delivery fail to store, as a full disk would; `heal` undoes it. */
  breakDeliveryWrites(): Promise<void>;
  healDeliveryWrites(): Promise<void>;
  /** Runs SQL on the engine's database over a connection of its own, as an operator's tool would. */
  exec(sql: string): Promise<void>;
  /**
   * Makes the database refuse (raise an error on) every `change` of a `table` row whose `column` is `value`, as a
   * constraint the row breaks would: one item of a batch that fails for real. `allowRows` undoes it.
   */
  refuseRows(table: string, change: 'INSERT' | 'DELETE', column: string, value: string): Promise<void>;
  allowRows(table: string, change: 'INSERT' | 'DELETE'): Promise<void>;
  /** Drops the database. */
  dispose(): Promise<void>;
}

export const GUILD = '222222222222222222';
export const CHANNEL_A = '300000000000000001';
export const CHANNEL_B = '300000000000000002';
export const HOUR = 60 * 60 * 1000;
const START_MS = Date.UTC(2026, 10, 23, 12);

export function delivery(id: string, event = 'modcall', hookId = 'hook-1'): NewDelivery {
  return { hookId, guildId: GUILD, deliveryId: id, event, receivedAt: 1_000, rawBody: `{"id":"${id}"}` };
}

/**
 * What every store contract's tests share, called inside its describe: the engine of the test (`use`), the store
 * opened on it (`start`, `restart`), the clock (`now`, from the same instant in every test), and the stores and the
 * engine's database closed and dropped after each test.
 */
export function storeHarness() {
  let underTest: StoreUnderTest | undefined;
  const open: Store[] = [];
  const now = { ms: START_MS };
  beforeEach(() => {
    now.ms = START_MS;
  });
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    await underTest?.dispose();
    underTest = undefined;
  });
  /** Makes the test's engine; `start` opens stores on it. */
  const use = async (makeEngine: () => Promise<StoreUnderTest>) => {
    underTest = await makeEngine();
    return underTest;
  };
  const start = async () => {
    if (!underTest) throw new Error('no engine: call use(makeEngine) first');
    const store = await underTest.open(() => now.ms);
    open.push(store);
    return store;
  };
  const restart = async (store: Store) => {
    await store.close();
    open.splice(open.indexOf(store), 1);
    return start();
  };
  const routeTo = (store: Store, channelId: string) =>
    store.guilds.update(GUILD, (settings) => ({ ...settings, defaultChannelId: channelId }));
  /** Writes down and confirms the lane's next message, as the feed does. */
  const post = async (store: Store, channelId: string, nonce: string) => {
    const entries = await store.deliveries.nextFor(channelId, 10);
    expect(
      await store.deliveries.writeDown(
        channelId,
        nonce,
        entries.map((entry) => entry.seq),
      ),
    ).toBe(true);
    await store.deliveries.ack(channelId, nonce, now.ms);
    return entries.map((entry) => entry.deliveryId);
  };
  return { now, use, start, restart, routeTo, post };
}

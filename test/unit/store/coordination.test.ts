import { describe, expect, it, vi } from 'vitest';

import { STORE_MODULES } from '../../../src/features/index.js';
import { partitionOf, PARTITIONS } from '../../../src/store/coordination.js';
import { openStore } from '../../../src/store/open-store.js';
import { captureLogs } from '../../helpers/capture-logs.js';

describe("the SQLite store's coordination (one process)", () => {
  it('gives the one process every partition and the gateway when the feed starts, and takes the gateway at stop', async () => {
    const store = await openStore('memory://', STORE_MODULES);
    const onGateway = vi.fn();
    const onShare = vi.fn();
    const ownership = store.coordinate({ logger: captureLogs().logger, wantsGateway: true, onGateway, onShare });
    const gained: number[] = [];

    await ownership.start({ gained: (partitions) => gained.push(...partitions), losing: () => Promise.resolve() });
    expect(gained).toHaveLength(PARTITIONS);
    expect(onGateway.mock.calls).toEqual([[true]]);
    expect(onShare.mock.calls).toEqual([[1]]);
    expect(ownership.owns('123456789012345678')).toBe(true);
    expect(ownership.leaseOf('123456789012345678')).toEqual({ partition: partitionOf('123456789012345678'), epoch: 0 });

    await ownership.stop();
    expect(onGateway.mock.calls).toEqual([[true], [false]]);
    await store.close();
  });

  it('tells a process that does not want the gateway nothing about it', async () => {
    const store = await openStore('memory://', STORE_MODULES);
    const onGateway = vi.fn();
    const ownership = store.coordinate({ logger: captureLogs().logger, wantsGateway: false, onGateway });
    await ownership.start({ gained: () => undefined, losing: () => Promise.resolve() });
    await ownership.stop();
    expect(onGateway).not.toHaveBeenCalled();
    await store.close();
  });
});

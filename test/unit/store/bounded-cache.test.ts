import { describe, expect, it } from 'vitest';

import { BoundedCache } from '../../../src/store/bounded-cache.js';

describe('a bounded cache in front of stored records', () => {
  it('holds at most its limit, dropping the oldest written first', () => {
    const cache = new BoundedCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3); // written again: now the newest
    cache.set('c', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([3, undefined, 4]);
  });

  it('forgets a key, or everything, when the store says it changed', () => {
    const cache = new BoundedCache<string>(10);
    cache.set('x', 'one');
    cache.set('y', 'two');
    cache.delete('x');
    expect(cache.get('x')).toBeUndefined();
    expect(cache.get('y')).toBe('two');
    cache.clear();
    expect(cache.get('y')).toBeUndefined();
  });
});

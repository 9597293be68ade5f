import { describe, expect, it } from 'vitest';

import { MinHeap } from '../../../src/base/min-heap.js';

describe('the min-heap', () => {
  it('gives back every item least first, whatever order they went in', () => {
    const heap = new MinHeap<number>((a, b) => a < b);
    const items = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1000);
    for (const item of items) heap.push(item);
    expect(heap.size).toBe(500);
    expect(heap.peek()).toBe(Math.min(...items));
    const out: number[] = [];
    for (let item = heap.pop(); item !== undefined; item = heap.pop()) out.push(item);
    expect(out).toEqual([...items].sort((a, b) => a - b));
    expect(heap.size).toBe(0);
    expect(heap.pop()).toBeUndefined();
  });

  it('keeps order while items go in between the ones coming out', () => {
    const heap = new MinHeap<number>((a, b) => a < b);
    for (const item of [5, 3, 8]) heap.push(item);
    expect(heap.pop()).toBe(3);
    heap.push(1);
    heap.push(9);
    expect([heap.pop(), heap.pop(), heap.pop(), heap.pop()]).toEqual([1, 5, 8, 9]);
  });
});

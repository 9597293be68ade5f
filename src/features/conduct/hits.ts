import type { Hit } from './store/conduct-store.js';

export type { Hit } from './store/conduct-store.js';

/** A hit's case, as one string: what tells two hits of one finding apart. */
export function hitKey(hit: Pick<Hit, 'server' | 'number'>): string {
  return `${hit.server}:${hit.number}`;
}

/** Hits by time, then server and number: the order a finding lists its cases in. */
export function byTime(a: Hit, b: Hit): number {
  return a.at - b.at || (a.server < b.server ? -1 : a.server > b.server ? 1 : a.number - b.number);
}

/**
 * The hits of `hits` that belong to a burst: those within some window of `windowMs` (both ends included) that
 * holds at least `count` of them. `times` may come in any order; the answer is in time order.
 */
export function burstHits(hits: readonly Hit[], count: number, windowMs: number): Hit[] {
  const sorted = [...hits].sort(byTime);
  const inBurst = new Array<boolean>(sorted.length).fill(false);
  let end = 0;
  for (let start = 0; start < sorted.length; start += 1) {
    const from = sorted[start]?.at ?? 0;
    if (end < start) end = start;
    while (end + 1 < sorted.length && (sorted[end + 1]?.at ?? Infinity) - from <= windowMs) end += 1;
    if (end - start + 1 >= count) inBurst.fill(true, start, end + 1);
  }
  return sorted.filter((_, index) => inBurst[index]);
}

/** Hits split where two in a row are more than `gapMs` apart: each part is one finding's cases. */
export function chainHits(hits: readonly Hit[], gapMs: number): Hit[][] {
  const chains: Hit[][] = [];
  for (const hit of [...hits].sort(byTime)) {
    const last = chains.at(-1);
    const previous = last?.at(-1);
    if (last && previous && hit.at - previous.at <= gapMs) last.push(hit);
    else chains.push([hit]);
  }
  return chains;
}

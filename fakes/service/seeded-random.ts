/** A small deterministic random source: the same seed always tells the same story. */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `count` different items, in random order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** A string of `length` digits that does not start with 0 (the shape of Discord and Roblox ids). */
  digits(length: number): string;
  /** A string of `length` lowercase hex digits. */
  hex(length: number): string;
}

/** mulberry32: tiny, fast and good enough for test data; not for anything secret. */
export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(0, items.length - 1)];
    if (item === undefined) throw new Error('cannot pick from an empty list');
    return item;
  };
  const sample = <T>(items: readonly T[], count: number): T[] => {
    const pool = [...items];
    const chosen: T[] = [];
    while (chosen.length < count && pool.length > 0) chosen.push(...pool.splice(int(0, pool.length - 1), 1));
    return chosen;
  };
  const digits = (length: number) =>
    String(int(1, 9)) + Array.from({ length: length - 1 }, () => String(int(0, 9))).join('');
  const hex = (length: number) => Array.from({ length }, () => int(0, 15).toString(16)).join('');
  return { next, int, pick, sample, digits, hex };
}

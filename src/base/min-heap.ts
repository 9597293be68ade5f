/**
 * A binary min-heap: the least item (by `before`) comes out first, in O(log n) for a push or a pop. The send
 * pacer's waiting lanes are one per channel with work, so a sorted array would cost a move per lane per send.
 */
export class MinHeap<T> {
  private readonly items: T[] = [];

  /** `before(a, b)` is true when `a` must come out before `b`. */
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  /** The least item, left in. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.before(items[at] as T, items[parent] as T)) break;
      this.swap(at, parent);
      at = parent;
    }
  }

  /** Takes the least item out; undefined when empty. */
  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let least = at;
      if (left < items.length && this.before(items[left] as T, items[least] as T)) least = left;
      if (right < items.length && this.before(items[right] as T, items[least] as T)) least = right;
      if (least === at) return top;
      this.swap(at, least);
      at = least;
    }
  }

  private swap(a: number, b: number): void {
    const items = this.items;
    const held = items[a] as T;
    items[a] = items[b] as T;
    items[b] = held;
  }
}

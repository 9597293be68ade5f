/** What a {@link SerialToggle} turns on and off. Neither may reject: each logs its own failures. */
export interface Toggled {
  on(): Promise<void>;
  off(): Promise<void>;
}

/**
 * Something turned on and off one transition at a time: a transition begins only once the one before it has
 * finished, and what is asked meanwhile folds into the state asked last (off then on again, while a start is under
 * way, is one stop and one start after it; on then off, while a stop is under way, is nothing more). So an `on`
 * never overlaps an `off`: what is turned on is never started again before its stop has finished.
 */
export class SerialToggle {
  private wanted = false;
  private isOn = false;
  private settling: Promise<void> | undefined;

  constructor(private readonly toggled: Toggled) {}

  /** Asks for on or off; resolves once the toggle has reached the state asked last. */
  set(on: boolean): Promise<void> {
    this.wanted = on;
    this.settling ??= this.settle();
    return this.settling;
  }

  private async settle(): Promise<void> {
    // Past the caller's assignment of `settling` before anything below can end it (and clear it).
    await Promise.resolve();
    try {
      while (this.isOn !== this.wanted) {
        const next = this.wanted;
        await (next ? this.toggled.on() : this.toggled.off());
        this.isOn = next;
      }
    } finally {
      // No await between the loop's last check and here: a set() made after it starts a new settle.
      this.settling = undefined;
    }
  }
}

import { formatNumber } from './stats.js';

/** One `bench <name> <value> <unit>` line (DESIGN.md benchmark contract). */
export interface Figure {
  name: string;
  value: number;
  unit: string;
}

/** Collects the figures of every group so run.ts can print them together, after all other output. */
export class Figures {
  private readonly figures: Figure[] = [];

  add(name: string, value: number, unit: string): void {
    this.figures.push({ name, value, unit });
  }

  lines(): string[] {
    return this.figures.map((figure) => `bench ${figure.name} ${formatNumber(figure.value)} ${figure.unit}`);
  }
}

/** Progress and raw numbers; everything that is not a `bench` line goes through here. */
export function log(message: string): void {
  process.stdout.write(`${message}\n`);
}

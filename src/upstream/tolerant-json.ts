import { z } from 'zod';

/**
 * Reading JSON whose shape the developer API does not document: every helper tries a few usual names or shapes
 * and answers `undefined` when none fits, so a record the service words differently is read as far as it can be
 * instead of refused.
 */

const JsonRecordSchema = z.record(z.string(), z.unknown());
/** A JSON object. */
export type JsonRecord = z.infer<typeof JsonRecordSchema>;

/** An array, or the array under `key` (or `items`, `data`, `results`) of an object. */
export function readList(json: unknown, key: string): unknown[] | undefined {
  const direct = asArray(json);
  if (direct) return direct;
  const record = asRecord(json);
  if (!record) return undefined;
  return [key, 'items', 'data', 'results'].map((name) => asArray(record[name])).find((list) => list !== undefined);
}

/** A list of words, or of objects naming one (`{ id: 'games', name: 'Games' }` gives `games`). */
export function readNamedList(value: unknown): string[] | undefined {
  const list = asArray(value);
  if (!list) return undefined;
  return list.flatMap((item) => {
    if (typeof item === 'string') return [item];
    const record = asRecord(item);
    const word = record && pickString(record, ['id', 'value', 'slug', 'key', 'name']);
    return word === undefined ? [] : [word];
  });
}

/** A list of words, or undefined when it is not one. */
export function readStringList(value: unknown): string[] | undefined {
  const list = asArray(value);
  return list?.every((item) => typeof item === 'string') ? list : undefined;
}

/** A JSON object (not an array), or undefined. */
export function asRecord(value: unknown): JsonRecord | undefined {
  const parsed = JsonRecordSchema.safeParse(value);
  return parsed.success && !Array.isArray(value) ? parsed.data : undefined;
}

/** An array, or undefined. */
export function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? (value as unknown[]) : undefined;
}

/** The first of `names` that holds a non-blank string. */
export function pickString(record: JsonRecord, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** The first of `names` that holds a finite number. */
export function pickNumber(record: JsonRecord, names: readonly string[]): number | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}

/** A time as milliseconds since the epoch: from epoch milliseconds, epoch seconds or an ISO date. */
export function pickTime(record: JsonRecord, names: readonly string[]): number | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
      // Below 10^11 a number cannot be milliseconds of any date after 1973: it is seconds.
      return value < 1e11 ? value * 1000 : value;
    }
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) {
      const at = Date.parse(value);
      if (!Number.isNaN(at)) return at;
    }
  }
  return undefined;
}

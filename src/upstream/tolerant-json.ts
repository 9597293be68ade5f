import { z } from 'zod';

/**
 * Reading JSON whose shape the developer API does not document: every helper tries a few usual names or shapes
 * and answers `undefined` when none fits, so an object the service words differently is read as far as it can be
 * instead of refused.
 */

const JsonObjectSchema = z.record(z.string(), z.unknown());
/** A JSON object. */
export type JsonObject = z.infer<typeof JsonObjectSchema>;

/** An array, or the array under `key` (or `items`, `data`, `results`) of an object. */
export function readList(json: unknown, key: string): unknown[] | undefined {
  const direct = asArray(json);
  if (direct) return direct;
  const object = asJsonObject(json);
  if (!object) return undefined;
  return [key, 'items', 'data', 'results'].map((name) => asArray(object[name])).find((list) => list !== undefined);
}

/** A list of words, or of objects naming one (`{ id: 'games', name: 'Games' }` gives `games`). */
export function readNamedList(value: unknown): string[] | undefined {
  const list = asArray(value);
  if (!list) return undefined;
  return list.flatMap((item) => {
    if (typeof item === 'string') return [item];
    const object = asJsonObject(item);
    const word = object && pickString(object, ['id', 'value', 'slug', 'key', 'name']);
    return word === undefined ? [] : [word];
  });
}

/** A list of words, or undefined when it is not one. */
export function readStringList(value: unknown): string[] | undefined {
  const list = asArray(value);
  return list?.every((item) => typeof item === 'string') ? list : undefined;
}

/** A JSON object (not an array), or undefined. */
export function asJsonObject(value: unknown): JsonObject | undefined {
  const parsed = JsonObjectSchema.safeParse(value);
  return parsed.success && !Array.isArray(value) ? parsed.data : undefined;
}

/** An array, or undefined. */
export function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? (value as unknown[]) : undefined;
}

/** The first of `names` that holds a non-blank string. */
export function pickString(object: JsonObject, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = object[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** The first of `names` that holds a finite number. */
export function pickNumber(object: JsonObject, names: readonly string[]): number | undefined {
  for (const name of names) {
    const value = object[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}

/** A time as milliseconds since the epoch: from epoch milliseconds, epoch seconds or an ISO date. */
export function pickTime(object: JsonObject, names: readonly string[]): number | undefined {
  for (const name of names) {
    const value = object[name];
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

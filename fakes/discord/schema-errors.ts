/**
 * Turns ajv errors into short, readable lines (`/embeds/0/title: must NOT have more than 256 characters`).
 */
import type { ErrorObject } from 'ajv/dist/2020.js';

/** Errors that only say "none of the alternatives matched"; useful alone, noise next to a concrete cause. */
function isAlternativeError(error: ErrorObject): boolean {
  return (
    error.keyword === 'oneOf' ||
    error.keyword === 'anyOf' ||
    error.keyword === 'enum' ||
    error.keyword === 'const' ||
    error.keyword === 'if' ||
    (error.keyword === 'type' && error.params['type'] === 'null')
  );
}

function isAtOrBelow(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

/** What the alternatives at one place would have accepted, e.g. `null, "users", "roles"`. */
function describeAlternatives(errors: readonly ErrorObject[]): string {
  const accepted: unknown[] = [];
  for (const error of errors) {
    if (error.keyword === 'const') accepted.push(error.params['allowedValue']);
    if (error.keyword === 'enum' && Array.isArray(error.params['allowedValues'])) {
      accepted.push(...(error.params['allowedValues'] as unknown[]));
    }
    if (error.keyword === 'type') accepted.push(null);
  }
  const unique = [...new Set(accepted.map((value) => JSON.stringify(value)))];
  return unique.length > 0 ? `must be one of ${unique.join(', ')}` : 'must match one of the allowed shapes';
}

function describe(error: ErrorObject): string {
  const message = error.message ?? error.keyword;
  if (error.keyword === 'additionalProperties') return `${message} (${String(error.params['additionalProperty'])})`;
  return message;
}

/**
 * Formats ajv errors for people: a failed `oneOf: [null, X]` reports the null branch and the union next to the
 * real problem inside X. So an alternative-only error is dropped when a concrete error sits at or below its place
 * or any error sits deeper; the rest are collapsed into one "must be one of" line per place.
 */
export function formatSchemaErrors(errors: readonly ErrorObject[]): string[] {
  const concrete = errors.filter((error) => !isAlternativeError(error));
  const lines = concrete.map((error) => `${error.instancePath || '/'}: ${describe(error)}`);

  const alternativesByPath = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    if (!isAlternativeError(error)) continue;
    const explained = errors.some((other) =>
      isAlternativeError(other)
        ? other.instancePath.startsWith(`${error.instancePath}/`)
        : isAtOrBelow(other.instancePath, error.instancePath),
    );
    if (explained) continue;
    const group = alternativesByPath.get(error.instancePath) ?? [];
    group.push(error);
    alternativesByPath.set(error.instancePath, group);
  }
  for (const [path, group] of alternativesByPath) lines.push(`${path || '/'}: ${describeAlternatives(group)}`);

  return [...new Set(lines)];
}

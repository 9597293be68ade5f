import { expect } from 'vitest';

/**
 * vitest's asymmetric matchers are typed `any`, which type-aware lint rightly refuses inside typed objects.
 * These wrappers give them the honest type `unknown`: they stand for a value the assertion checks.
 */
export const anyString = (): unknown => expect.any(String);
export const anyNumber = (): unknown => expect.any(Number);
export const anyArray = (): unknown => expect.any(Array);
export const stringMatching = (pattern: RegExp): unknown => expect.stringMatching(pattern);

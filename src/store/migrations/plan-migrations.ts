import type { StoreModule } from '../store-module.js';
import { KERNEL, KERNEL_STEPS } from './kernel-steps.js';
import type { KernelStep, MigrationEngine, MigrationStep } from './migration-step.js';

/** A step as the runner applies it: whose, which, and its SQL on the engine at hand. */
export interface PlannedStep {
  module: string;
  step: KernelStep;
  sql: string;
}

/** A step the store recorded as applied. */
export interface AppliedStep {
  module: string;
  name: string;
}

/**
 * Every step on `engine`, in the order they apply: the kernel's, then each module's in the order given (the
 * features' list). Steps of PostgreSQL's or SQLite's only are left out on the other engine.
 */
export function stepsOn(engine: MigrationEngine, modules: readonly StoreModule[]): PlannedStep[] {
  const owners: ReadonlyArray<{ module: string; steps: readonly MigrationStep[] }> = [
    { module: KERNEL, steps: KERNEL_STEPS },
    ...modules.map((module) => ({ module: module.name, steps: module.migrations })),
  ];
  const seen = new Set<string>();
  return owners.flatMap(({ module, steps }) => {
    if (seen.has(module)) throw new Error(`two store modules are named ${module}`);
    seen.add(module);
    const names = new Set<string>();
    return steps.flatMap((step) => {
      if (names.has(step.name)) throw new Error(`the ${module} module has two steps named ${step.name}`);
      names.add(step.name);
      const sql = step[engine];
      return sql === undefined ? [] : [{ module, step, sql }];
    });
  });
}

/**
 * The steps a store the numbered runner brought to `legacyVersion` has already made: those that were (part of) a
 * numbered step up to it. Refuses when a numbered step up to it is made by none of `steps` and is not one of
 * `madeNothing` (PostgreSQL's that made only accept functions): a feature's store module was left out, and its
 * steps would later run again over tables that are there.
 */
export function madeByLegacy(
  engine: MigrationEngine,
  steps: readonly PlannedStep[],
  legacyVersion: number,
  madeNothing: readonly number[] = [],
): AppliedStep[] {
  const made = steps.filter(({ step }) => (step.legacy?.[engine] ?? Infinity) <= legacyVersion);
  const claimed = new Set([...made.map(({ step }) => step.legacy?.[engine]), ...madeNothing]);
  for (let version = 1; version <= legacyVersion; version += 1) {
    if (!claimed.has(version)) {
      throw new Error(
        `the store's numbered step ${version} is no step of this store's modules: open it with every feature's ` +
          'store module (src/features/index.ts)',
      );
    }
  }
  return made.map(({ module, step }) => ({ module, name: step.name }));
}

/**
 * The steps to apply, in order: those the store has not recorded. Refuses a store that recorded a step this
 * version does not know of a module it knows (a newer version migrated it); a module it does not know at all
 * (a feature this version lacks) keeps its tables, untouched.
 */
export function pendingSteps(steps: readonly PlannedStep[], applied: readonly AppliedStep[]): PlannedStep[] {
  const key = (module: string, name: string) => `${module}\n${name}`;
  const known = new Set(steps.map(({ module, step }) => key(module, step.name)));
  const modules = new Set(steps.map(({ module }) => module));
  const unknown = applied.find(({ module, name }) => modules.has(module) && !known.has(key(module, name)));
  if (unknown) {
    throw new Error(
      `the store was migrated by a newer version of the bot (step ${unknown.name} of ${unknown.module}, which ` +
        'this version does not know): upgrade the bot',
    );
  }
  const done = new Set(applied.map(({ module, name }) => key(module, name)));
  return steps.filter(({ module, step }) => !done.has(key(module, step.name)));
}

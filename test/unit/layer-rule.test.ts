import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';

import { makeTempDir } from '../helpers/temp-dir.js';

/**
 * The layer rule (`.dependency-cruiser.cjs`, run by `npm run check:layers` in `npm test`) catches what it says it
 * does: each rule run on a small tree of its own, written for the test, with an import that breaks it and imports
 * that do not. The tree's paths are the project's (`src/features/<feature>/…`), so the rules read it as they read
 * the bot.
 */

const requireCommonJs = createRequire(import.meta.url);
const RULES = requireCommonJs('../../.dependency-cruiser.cjs') as IFlattenedRuleSet;

const folders: Array<{ remove: () => void }> = [];
afterEach(() => {
  for (const folder of folders.splice(0)) folder.remove();
});

/**
 * Writes `imports` as a tree of modules (each file importing the files it names, every file named existing) and
 * returns the rule each import breaks, as `rule: from → to`.
 */
async function violationsOf(imports: Record<string, string[]>): Promise<string[]> {
  const folder = makeTempDir('bridge-layers-');
  folders.push(folder);
  const files = new Set([...Object.keys(imports), ...Object.values(imports).flat()]);
  for (const file of files) {
    const lines = (imports[file] ?? []).map((target, index) => {
      let specifier = join(dirname(file).replace(/[^/]+/g, '..'), target.replace(/\.ts$/, ''));
      if (!specifier.startsWith('.')) specifier = `./${specifier}`;
      return `import * as m${index} from '${specifier}';\nexport const u${index} = m${index};`;
    });
    mkdirSync(join(folder.path, dirname(file)), { recursive: true });
    writeFileSync(join(folder.path, file), `${lines.join('\n')}\nexport const name = '${file}';\n`);
  }
  const { output } = await cruise(
    ['src'],
    { baseDir: folder.path, validate: true, ruleSet: { forbidden: RULES.forbidden ?? [] }, tsPreCompilationDeps: true },
    { extensions: ['.ts', '.js'] },
  );
  const result = output as ICruiseResult;
  const unresolved = result.modules.flatMap((module) =>
    module.dependencies.filter((dependency) => dependency.couldNotResolve).map((dependency) => dependency.module),
  );
  expect(unresolved, 'every import of the tree resolves').toEqual([]);
  return (result.summary.violations ?? []).map(
    (violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`,
  );
}

describe('the layer rule', () => {
  it("lets a feature's store/ import the store kernel, base, upstream and its own store/, and nothing else", async () => {
    const violations = await violationsOf({
      'src/features/alpha/store/alpha-store.ts': [
        'src/store/sql-runner.ts',
        'src/base/clock.ts',
        'src/upstream/record-update.ts',
        'src/features/alpha/store/alpha-statements.ts',
        'src/features/alpha/describe-alpha.ts',
        'src/features/beta/index.ts',
        'src/discord/poster.ts',
        'src/feed/lane.ts',
      ],
      'src/features/alpha/store/migrations/0001-tables.ts': ['src/store/migrations/migration-step.ts'],
    });

    expect(violations.sort()).toEqual([
      'feature-store-on-the-kernel: src/features/alpha/store/alpha-store.ts → src/discord/poster.ts',
      'feature-store-on-the-kernel: src/features/alpha/store/alpha-store.ts → src/features/alpha/describe-alpha.ts',
      'feature-store-on-the-kernel: src/features/alpha/store/alpha-store.ts → src/features/beta/index.ts',
      'feature-store-on-the-kernel: src/features/alpha/store/alpha-store.ts → src/feed/lane.ts',
    ]);
  });

  it("lets a feature, its commands too, reach another feature only through that feature's index.ts", async () => {
    const violations = await violationsOf({
      'src/features/alpha/describe-alpha.ts': [
        'src/features/beta/index.ts',
        'src/features/beta/describe-beta.ts',
        'src/features/beta/store/beta-store.ts',
      ],
      'src/features/alpha/commands/alpha.ts': [
        'src/features/alpha/describe-alpha.ts',
        'src/features/alpha/store/alpha-store.ts',
        'src/features/beta/index.ts',
        'src/features/beta/describe-beta.ts',
        'src/features/beta/commands/beta.ts',
      ],
    });

    expect(violations.sort()).toEqual([
      'no-feature-internals: src/features/alpha/commands/alpha.ts → src/features/beta/commands/beta.ts',
      'no-feature-internals: src/features/alpha/commands/alpha.ts → src/features/beta/describe-beta.ts',
      'no-feature-internals: src/features/alpha/describe-alpha.ts → src/features/beta/describe-beta.ts',
      'no-feature-internals: src/features/alpha/describe-alpha.ts → src/features/beta/store/beta-store.ts',
    ]);
  });

  it("lets the features' list take a feature through its definition.ts, and nothing else take a definition", async () => {
    const violations = await violationsOf({
      'src/features/index.ts': [
        'src/features/alpha/definition.ts',
        'src/features/alpha/feature.ts',
        'src/features/alpha/commands/index.ts',
        'src/features/alpha/describe-alpha.ts',
      ],
      'src/features/alpha/definition.ts': [
        'src/features/alpha/commands/index.ts',
        'src/features/alpha/feature.ts',
        'src/features/alpha/store/alpha-module.ts',
      ],
      'src/features/alpha/describe-alpha.ts': ['src/features/alpha/commands/index.ts'],
      'src/features/beta/describe-beta.ts': ['src/features/beta/definition.ts'],
      'src/bot.ts': ['src/features/index.ts', 'src/features/alpha/definition.ts'],
    });

    expect(violations.sort()).toEqual([
      'commands-above-their-feature: src/features/alpha/describe-alpha.ts → src/features/alpha/commands/index.ts',
      'only-the-list-takes-definitions: src/bot.ts → src/features/alpha/definition.ts',
      'only-the-list-takes-definitions: src/features/beta/describe-beta.ts → src/features/beta/definition.ts',
      'the-list-takes-definitions: src/features/index.ts → src/features/alpha/commands/index.ts',
      'the-list-takes-definitions: src/features/index.ts → src/features/alpha/describe-alpha.ts',
    ]);
  });

  it("lets a shared command reach a feature only through that feature's index.ts or the features' list", async () => {
    const violations = await violationsOf({
      'src/commands/feed.ts': [
        'src/features/index.ts',
        'src/features/beta/index.ts',
        'src/features/beta/describe-beta.ts',
        'src/features/beta/commands/beta.ts',
      ],
    });

    expect(violations.sort()).toEqual([
      'shared-commands-through-index: src/commands/feed.ts → src/features/beta/commands/beta.ts',
      'shared-commands-through-index: src/commands/feed.ts → src/features/beta/describe-beta.ts',
    ]);
  });
});

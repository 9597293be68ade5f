/**
 * The layers of the code and the one rule between them: nothing imports upward, and no feature reaches into
 * another's internals (ARCHITECTURE.md, "Layers"). `npm test` runs this check (npm run check:layers).
 *
 *   composition     src/*.ts                    (bot.ts, start-feed.ts, main.ts …): may import anything
 *   shared commands src/commands/               /feed, /status: may import the features only through their
 *                                               index.ts (and the features' list); imported by the composition
 *                                               root alone
 *   features        src/features/<feature>/     may import feed/intake/embeds and the bottom; another feature
 *                                               only through its index.ts. Its commands/ (its slash commands,
 *                                               buttons and dialogs) sit above the rest of it: only its own
 *                                               index.ts and definition.ts take them; the features' list
 *                                               (src/features/index.ts) takes each feature's definition.ts.
 *                                               Its store/ imports only the store kernel, base and upstream
 *   feed, intake    src/feed, src/intake, src/embeds
 *   bottom          src/upstream, src/store, src/discord
 *   base            src/base                    clock, config, logger, errors, timers
 */
const BOTTOM = '^src/(upstream|store|discord)/';
const MIDDLE = '^src/(feed|intake|embeds)/';
const FEATURES = '^src/features/';
const SHARED_COMMANDS = '^src/commands/';
const TOP = '^src/[^/]+[.]ts$';

/** A rule that `from` imports nothing matching any of `to`. */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

module.exports = {
  forbidden: [
    forbid('base-stays-at-the-bottom', 'src/base imports no other folder of the bot', '^src/base/', [
      BOTTOM,
      MIDDLE,
      FEATURES,
      TOP,
    ]),
    forbid('store-imports-only-base', 'the store and its engines import nothing but base and upstream', '^src/store/', [
      '^src/discord/',
      MIDDLE,
      FEATURES,
      TOP,
    ]),
    forbid('upstream-imports-only-base', 'the service clients import nothing but base', '^src/upstream/', [
      '^src/(store|discord)/',
      MIDDLE,
      FEATURES,
      TOP,
    ]),
    forbid('discord-stays-at-the-bottom', 'src/discord imports nothing above the bottom layer', '^src/discord/', [
      MIDDLE,
      FEATURES,
      TOP,
    ]),
    forbid('feed-and-intake-below-features', 'the feed, the intake and the embeds import no feature', MIDDLE, [
      FEATURES,
      TOP,
    ]),
    forbid('features-below-the-root', 'a feature imports not the composition root', FEATURES, [TOP]),
    forbid('shared-commands-below-the-root', 'a shared command imports not the composition root', SHARED_COMMANDS, [
      TOP,
    ]),
    {
      name: 'only-the-root-takes-shared-commands',
      comment: 'nothing but the composition root imports the shared commands (src/commands/)',
      severity: 'error',
      from: { pathNot: [TOP, SHARED_COMMANDS] },
      to: { path: SHARED_COMMANDS },
    },
    {
      name: 'shared-commands-through-index',
      comment: "a shared command uses a feature only through that feature's index.ts (or the features' list)",
      severity: 'error',
      from: { path: SHARED_COMMANDS },
      to: { path: FEATURES, pathNot: ['^src/features/[^/]+/index[.]ts$', '^src/features/index[.]ts$'] },
    },
    {
      name: 'commands-above-their-feature',
      comment: "a feature's commands/ are taken only by its own index.ts and definition.ts, not by its logic",
      severity: 'error',
      from: { path: '^src/features/([^/]+)/', pathNot: '^src/features/[^/]+/(commands/|index[.]ts$|definition[.]ts$)' },
      to: { path: '^src/features/$1/commands/' },
    },
    {
      name: 'the-list-takes-definitions',
      comment:
        "the features' list takes a feature through its definition.ts (its interactions, store module and making), " +
        'its types from its feature.ts, and its index.ts',
      severity: 'error',
      from: { path: '^src/features/index[.]ts$' },
      to: { path: '^src/features/[^/]+/', pathNot: '^src/features/[^/]+/(definition|feature|index)[.]ts$' },
    },
    {
      name: 'only-the-list-takes-definitions',
      comment: "a feature's definition.ts is taken by the features' list alone",
      severity: 'error',
      from: { pathNot: '^src/features/index[.]ts$' },
      to: { path: '^src/features/[^/]+/definition[.]ts$' },
    },
    {
      name: 'feature-store-on-the-kernel',
      comment:
        "a feature's store/ (its statements, migrations, module) imports only the store kernel (src/store/), base, " +
        'upstream (what the kernel may import) and its own store/: not its feature, not another feature, not Discord',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/store/' },
      to: { path: '^src/', pathNot: ['^src/features/$1/store/', '^src/store/', '^src/base/', '^src/upstream/'] },
    },
    {
      name: 'no-feature-internals',
      comment: "a feature uses another feature only through that feature's index.ts",
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/[^/]+/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/index[.]ts$'] },
    },
    {
      name: 'only-the-list-makes-features',
      comment: "a feature's value (feature.ts) is made only by the list in src/features/index.ts",
      severity: 'error',
      from: { path: '^src/features/([^/]+)/', pathNot: '^src/features/index[.]ts$' },
      to: { path: '^src/features/[^/]+/feature[.]ts$', pathNot: '^src/features/$1/' },
    },
    {
      name: 'no-cycles',
      comment: 'no import cycles (type-only imports aside)',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'type-import'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type from above is as much an upward arrow as a value.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};

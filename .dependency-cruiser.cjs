/**
 * The layers of the code and the one rule between them: nothing imports upward, and no feature reaches into
 * another's internals (ARCHITECTURE.md, "Layers"). `npm test` runs this check (npm run check:layers).
 *
 *   composition   src/*.ts                      (bot.ts, start-feed.ts, main.ts …): may import anything
 *   commands      commands/                     may import features and everything below
 *   features      src/features/<feature>/       may import feed/intake/embeds and the bottom; another feature
 *                                               only through its index.ts
 *   feed, intake  src/feed, src/intake, src/embeds
 *   bottom        src/upstream, src/store, src/discord
 *   base          src/base                      clock, config, logger, errors, timers
 */
const BOTTOM = '^src/(upstream|store|discord)/';
const MIDDLE = '^src/(feed|intake|embeds)/';
const FEATURES = '^src/features/';
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
      '^commands/',
    ]),
    forbid('store-imports-only-base', 'the store and its engines import nothing but base and upstream', '^src/store/', [
      '^src/discord/',
      MIDDLE,
      FEATURES,
      TOP,
      '^commands/',
    ]),
    forbid('upstream-imports-only-base', 'the service clients import nothing but base', '^src/upstream/', [
      '^src/(store|discord)/',
      MIDDLE,
      FEATURES,
      TOP,
      '^commands/',
    ]),
    forbid('discord-stays-at-the-bottom', 'src/discord imports nothing above the bottom layer', '^src/discord/', [
      MIDDLE,
      FEATURES,
      TOP,
      '^commands/',
    ]),
    forbid('feed-and-intake-below-features', 'the feed, the intake and the embeds import no feature', MIDDLE, [
      FEATURES,
      TOP,
      '^commands/',
    ]),
    forbid('features-below-commands', 'a feature imports no command and not the composition root', FEATURES, [
      TOP,
      '^commands/',
    ]),
    forbid('commands-below-the-root', 'a command imports not the composition root', '^commands/', [TOP]),
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

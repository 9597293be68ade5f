import {
  bindInteractions,
  joinInteractions,
  type BoundInteractions,
  type Command,
  type CommandBasics,
  type Interactions,
} from '../discord/command.js';
import type { StoreModule } from '../store/store-module.js';
import { auditDefinition } from './audit/definition.js';
import { cardsDefinition } from './cards/definition.js';
import type { EscalationTimings } from './cards/feature.js';
import { conductDefinition } from './conduct/definition.js';
import type { ConductTimings } from './conduct/feature.js';
import { digestDefinition } from './digest/definition.js';
import type { DigestTimings } from './digest/feature.js';
import { dutyDefinition } from './duty/definition.js';
import type { DutyTimings } from './duty/feature.js';
import type { BotParts, Feature } from './feature.js';
import { healthDefinition } from './health/definition.js';
import type { HealthTimings } from './health/feature.js';
import { leaveDefinition } from './leave/definition.js';
import { recordDefinition } from './record/definition.js';
import type { RecordTimings } from './record/feature.js';
import { releasesDefinition } from './releases/definition.js';
import type { ReleasesOptions } from './releases/feature.js';
import { replayDefinition } from './replay/definition.js';
import { routingDefinition } from './routing/definition.js';
import { staffActionsDefinition } from './staff-actions/definition.js';
import { threadsDefinition } from './threads/definition.js';
import type { ThreadTimings } from './threads/feature.js';
import { webhooksDefinition } from './webhooks/definition.js';

/**
 * Every feature of the bot, one line each (its `definition.ts`: its interactions, its store module, how it is
 * made), in the features' order: the order they are made in (one handed another's deps when made comes after
 * it), their jobs started, their sweeps run, their commands registered (deploy-commands) and their store modules'
 * migrations applied. A new feature is one more line here; one that needs something of the others (a listener,
 * another feature's deps, timings tests shorten) has its line in {@link createFeatures}'s wiring too.
 */
const FEATURES = {
  webhooks: webhooksDefinition,
  routing: routingDefinition,
  health: healthDefinition,
  cards: cardsDefinition,
  audit: auditDefinition,
  releases: releasesDefinition,
  record: recordDefinition,
  duty: dutyDefinition,
  threads: threadsDefinition,
  digest: digestDefinition,
  conduct: conductDefinition,
  leave: leaveDefinition,
  replay: replayDefinition,
  staffActions: staffActionsDefinition,
};

type Definitions = typeof FEATURES;
type Name = keyof Definitions;
/** What each feature is made as (its `create`'s value). */
export type Features = { [N in Name]: ReturnType<Definitions[N]['create']> };
/** What a feature's `create` is handed: undefined when it needs nothing of the others. */
type NeedsOf<N extends Name> = Definitions[N]['create'] extends (parts: BotParts, needs: infer Needs) => Feature
  ? Needs
  : never;
/** What the features that need something are handed, each asked for when it is made. */
type Wiring = { [N in Name as undefined extends NeedsOf<N> ? never : N]: () => NeedsOf<N> };

/** The names of the features, in the features' order. */
const NAMES = Object.keys(FEATURES) as Name[];

/**
 * The store modules of the features with tables of their own, in the features' order: the composition root opens
 * the store with them (`openStore`), which applies their migrations after the kernel's in this order, forgets a
 * guild in each and copies each in migrate-store.
 */
export const STORE_MODULES: readonly StoreModule[] = NAMES.flatMap((name) => {
  const { storeModule } = FEATURES[name];
  return storeModule ? [storeModule] : [];
});

/** The features' own timings: tests and the demo shorten them. */
export interface FeatureTimings {
  releasePolling?: ReleasesOptions['intervals'];
  escalation?: EscalationTimings;
  health?: HealthTimings;
  record?: RecordTimings;
  digest?: DigestTimings;
  duty?: DutyTimings;
  threads?: ThreadTimings;
  conduct?: ConductTimings;
}

/**
 * Every feature of the bot, made from the shared parts in the features' order, each handed what it needs of the
 * others. A listener reaches the feature it tells when it is called (made by then, whatever the order); a
 * feature's deps handed at its making are those of a feature made before it.
 */
export function createFeatures(parts: BotParts, timings: FeatureTimings = {}): Features {
  const made: Partial<Features> = {};
  const the = <N extends Name>(name: N): Features[N] => {
    const feature = made[name];
    if (!feature) throw new Error(`the ${name} feature is needed before it is made: it goes earlier in FEATURES`);
    return feature;
  };
  const wiring: Wiring = {
    // An alert's Re-enable and Send test act on a webhook.
    health: () => ({ webhooks: the('webhooks').deps, timings: timings.health }),
    cards: () => ({
      timings: timings.escalation,
      listeners: {
        // A session's card is where its thread starts.
        onSessionCard: (card) => the('threads').cardPosted(card),
        // A claim shows in the session's log and counts in its report.
        onModcallHandled: (guildId) => the('threads').recordChanged([guildId]),
      },
    }),
    releases: () => ({
      intervals: timings.releasePolling,
      // A guild whose polls keep failing is a health incident like any other.
      onPollHealth: (guildId, pollHealth) => the('health').monitor.notePoll(guildId, pollHealth),
    }),
    record: () => ({
      timings: timings.record,
      listeners: {
        // Who is on shift changed: the duty board, role and coverage guard follow the record as its writer merges.
        onShiftsChanged: (guildIds) => the('duty').shiftsChanged(guildIds),
        // A session started or ended: the coverage guard looks again.
        onSessionsChanged: (guildIds) => the('duty').sessionsChanged(guildIds),
        // Anything merged: the session threads' logs follow the record.
        onRecordChanged: (guildIds) => the('threads').recordChanged(guildIds),
        // The cases and shifts merged are noted for the conduct guard in the merges' own transaction.
        withMerges: (merged) => the('conduct').withMerges(merged),
      },
    }),
    duty: () => ({
      timings: timings.duty,
      listeners: {
        // A running session short of staff is a health incident like any other: one alert, edited, resolved.
        onCoverage: (guildId, shortfall) => the('health').monitor.noteCoverage(guildId, shortfall),
        // An on-duty role the bot may no longer give (a dangerous permission, the hierarchy) is one too.
        onRoleRefusal: (guildId, refusal) => the('health').monitor.noteDutyRole(guildId, refusal),
      },
    }),
    threads: () => ({
      // A session already running when threads are turned on gets its thread from the card it has.
      sources: {
        sessionCardOf: (guildId, server, sessionId) => the('cards').sessionCardOf(guildId, server, sessionId),
      },
      timings: timings.threads,
    }),
    digest: () => ({
      // The digest's chart is drawn by the record's chart process: one for the bot.
      charts: the('record').deps.charts,
      timings: timings.digest,
      // A digest Discord refuses to take is a health incident: admins hear of it instead of retries nobody sees.
      listeners: { onPostOutcome: (guildId, refused) => void the('health').monitor.noteDigest(guildId, refused) },
    }),
    conduct: () => ({ timings: timings.conduct }),
    leave: () => ({
      // Someone went on leave or came back: the duty board shows it, the coverage guard's alert says it.
      listeners: { onLeaveChanged: (guildId) => the('duty').shiftsChanged([guildId]) },
    }),
    // Discipline and promotions; a feature with a timeline of its own (leave) hands its source here.
    staffActions: () => ({ timeline: [the('leave').timeline] }),
  };
  const needsOf = (name: Name): unknown => (name in wiring ? wiring[name as keyof Wiring]() : undefined);
  for (const name of NAMES) {
    // Each definition's create takes the needs its own wiring line makes (the compiler checks the line against it).
    const create = FEATURES[name].create as (parts: BotParts, needs: unknown) => Feature;
    Object.assign(made, { [name]: create(parts, needsOf(name)) });
  }
  return made as Features;
}

/**
 * What each feature answers in Discord: its slash commands, buttons and dialogs (its `commands/index.ts`), known
 * without a store or a connection (deploy-commands registers the commands' definitions), each bound to its own
 * feature's deps by {@link bindFeatureInteractions}.
 */
export const FEATURE_INTERACTIONS = Object.fromEntries(NAMES.map((name) => [name, FEATURES[name].interactions])) as {
  [N in Name]: Interactions<CommandBasics & Features[N]['deps']>;
};

/** Every feature's slash commands, in the features' order: their definitions are what deploy-commands registers. */
export function featureCommands(): Array<Command<never>> {
  return NAMES.flatMap((name) => (FEATURE_INTERACTIONS[name] as Interactions<never>).commands ?? []);
}

/** Every feature's commands, buttons and dialogs, each bound to its feature's deps and the basics. */
export function bindFeatureInteractions(features: Features, basics: CommandBasics): BoundInteractions {
  const bind = <N extends Name>(name: N) =>
    bindInteractions(FEATURE_INTERACTIONS[name], { ...basics, ...features[name].deps });
  return joinInteractions(NAMES.map(bind));
}

/** The features as a list: what the frame starts, sweeps and tells. */
export function featureList(features: Features): Feature[] {
  return NAMES.map((name) => features[name]);
}

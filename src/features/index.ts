import {
  bindInteractions,
  joinInteractions,
  type BoundInteractions,
  type Command,
  type CommandBasics,
  type Interactions,
} from '../discord/command.js';
import type { StoreModule } from '../store/store-module.js';
import { auditInteractions } from './audit/commands/index.js';
import { createAuditFeature } from './audit/feature.js';
import { auditModule } from './audit/store/audit-module.js';
import { cardsInteractions } from './cards/commands/index.js';
import { createCardsFeature, type EscalationTimings } from './cards/feature.js';
import { digestInteractions } from './digest/commands/index.js';
import { createDigestFeature, type DigestTimings } from './digest/feature.js';
import { digestModule } from './digest/store/digest-module.js';
import { dutyInteractions } from './duty/commands/index.js';
import { createDutyFeature, type DutyTimings } from './duty/feature.js';
import { dutyModule } from './duty/store/duty-module.js';
import type { BotParts, Feature } from './feature.js';
import { healthInteractions } from './health/commands/index.js';
import { createHealthFeature, type HealthTimings } from './health/feature.js';
import { leaveInteractions } from './leave/commands/index.js';
import { createLeaveFeature } from './leave/feature.js';
import { leaveModule } from './leave/store/leave-module.js';
import { recordInteractions } from './record/commands/index.js';
import { createRecordFeature, type RecordTimings } from './record/feature.js';
import { recordModule } from './record/store/record-module.js';
import { releasesInteractions } from './releases/commands/index.js';
import { createReleasesFeature, type ReleasesOptions } from './releases/feature.js';
import { createRoutingFeature } from './routing/feature.js';
import { createThreadsFeature, type ThreadTimings } from './threads/feature.js';
import { webhooksInteractions } from './webhooks/commands/index.js';
import { createWebhooksFeature } from './webhooks/feature.js';

/**
 * The store modules of the features with tables of their own, one line a feature, in the order of the features
 * below: the composition root opens the store with them (`openStore`), which applies their migrations after the
 * kernel's in this order, forgets a guild in each and copies each in migrate-store.
 */
export const STORE_MODULES: readonly StoreModule[] = [auditModule, recordModule, dutyModule, digestModule, leaveModule];

/** The features' own timings: tests and the demo shorten them. */
export interface FeatureTimings {
  releasePolling?: ReleasesOptions['intervals'];
  escalation?: EscalationTimings;
  health?: HealthTimings;
  record?: RecordTimings;
  digest?: DigestTimings;
  duty?: DutyTimings;
  threads?: ThreadTimings;
}

/**
 * Every feature of the bot, made from the shared parts. A new feature is one more line here, and its commands'
 * line in {@link FEATURE_INTERACTIONS}; the rest of the bot takes it from {@link featureList}.
 */
export function createFeatures(parts: BotParts, timings: FeatureTimings = {}) {
  const webhooks = createWebhooksFeature(parts);
  // An alert's Re-enable and Send test act on a webhook.
  const health = createHealthFeature(parts, webhooks.deps, timings.health);
  const duty = createDutyFeature(parts, timings.duty, {
    // A running session short of staff is a health incident like any other: one alert, edited, resolved.
    onCoverage: (guildId, shortfall) => health.monitor.noteCoverage(guildId, shortfall),
    // An on-duty role the bot may no longer give (a dangerous permission, the hierarchy) is one too.
    onRoleRefusal: (guildId, refusal) => health.monitor.noteDutyRole(guildId, refusal),
  });
  const threads = createThreadsFeature(
    parts,
    // A session already running when threads are turned on gets its thread from the card it has.
    { sessionCardOf: (guildId, server, sessionId) => cards.sessionCardOf(guildId, server, sessionId) },
    timings.threads,
  );
  const leave = createLeaveFeature(parts, {
    // Someone went on leave or came back: the duty board shows it, the coverage guard's alert says it.
    onLeaveChanged: (guildId) => duty.shiftsChanged([guildId]),
  });
  const recordFeature = createRecordFeature(parts, timings.record, {
    // Who is on shift changed: the duty board, role and coverage guard follow the record as its writer merges.
    onShiftsChanged: (guildIds) => duty.shiftsChanged(guildIds),
    // A session started or ended: the coverage guard looks again.
    onSessionsChanged: (guildIds) => duty.sessionsChanged(guildIds),
    // Anything merged: the session threads' logs follow the record.
    onRecordChanged: (guildIds) => threads.recordChanged(guildIds),
  });
  // /staff is the record's; its activity subcommand is the leave feature's, lent here.
  const record = { ...recordFeature, deps: { ...recordFeature.deps, activity: leave.staffActivity } };
  const cards = createCardsFeature(parts, timings.escalation, {
    // A session's card is where its thread starts.
    onSessionCard: (card) => threads.cardPosted(card),
    // A claim shows in the session's log and counts in its report.
    onModcallHandled: (guildId) => threads.recordChanged([guildId]),
  });
  return {
    webhooks,
    routing: createRoutingFeature(parts),
    health,
    cards,
    releases: createReleasesFeature(parts, {
      intervals: timings.releasePolling,
      // A guild whose polls keep failing is a health incident like any other.
      onPollHealth: (guildId, pollHealth) => health.monitor.notePoll(guildId, pollHealth),
    }),
    audit: createAuditFeature(parts),
    record,
    duty,
    threads,
    // The digest's chart is drawn by the record's chart process: one for the bot.
    digest: createDigestFeature(parts, record.deps.charts, timings.digest, {
      // A digest Discord refuses to take is a health incident: admins hear of it instead of retries nobody sees.
      onPostOutcome: (guildId, refused) => void health.monitor.noteDigest(guildId, refused),
    }),
    leave,
  };
}

export type Features = ReturnType<typeof createFeatures>;

/**
 * What each feature answers in Discord: its slash commands, buttons and dialogs (its `commands/index.ts`), known
 * without a store or a connection (deploy-commands registers the commands' definitions), each bound to its own
 * feature's deps by {@link bindFeatureInteractions}. Every feature has its line, in the order its commands are
 * registered; a feature whose commands need another's deps is handed them in {@link createFeatures}.
 */
export const FEATURE_INTERACTIONS: { [Name in keyof Features]: Interactions<CommandBasics & Features[Name]['deps']> } =
  {
    webhooks: webhooksInteractions,
    health: healthInteractions,
    audit: auditInteractions,
    releases: releasesInteractions,
    record: recordInteractions,
    duty: dutyInteractions,
    digest: digestInteractions,
    cards: cardsInteractions,
    routing: {},
    threads: {},
    leave: leaveInteractions,
  };

/** Every feature's slash commands, in the features' order: their definitions are what deploy-commands registers. */
export function featureCommands(): Array<Command<never>> {
  const all: ReadonlyArray<Interactions<never>> = Object.values(FEATURE_INTERACTIONS);
  return all.flatMap((interactions) => interactions.commands ?? []);
}

/** Every feature's commands, buttons and dialogs, each bound to its feature's deps and the basics. */
export function bindFeatureInteractions(features: Features, basics: CommandBasics): BoundInteractions {
  const bind = <Name extends keyof Features>(name: Name) =>
    bindInteractions(FEATURE_INTERACTIONS[name], { ...basics, ...features[name].deps });
  return joinInteractions((Object.keys(FEATURE_INTERACTIONS) as Array<keyof Features>).map(bind));
}

/** The features as a list: what the frame starts, sweeps and tells. */
export function featureList(features: Features): Feature[] {
  return Object.values(features);
}

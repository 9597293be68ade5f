import {
  bindInteractions,
  joinInteractions,
  type BoundInteractions,
  type Command,
  type CommandBasics,
} from '../discord/command.js';
import { bindFeatureInteractions, featureCommands, type Features } from '../features/index.js';
import { feedCommand } from './feed.js';
import { staffCommand } from './staff.js';
import { statusCommand } from './status.js';

/** The commands several features share: each delegates its parts to the features that own them. */
export const SHARED_COMMANDS = [feedCommand, statusCommand, staffCommand] as const;

/**
 * Every slash command of the bot: each feature's (src/features/index.ts), then the shared ones. What
 * deploy-commands registers (their definitions).
 */
export const COMMANDS: ReadonlyArray<Command<never>> = [...featureCommands(), ...SHARED_COMMANDS];

/** Every command, button and dialog of the bot bound to what it uses of the features: what the dispatcher serves. */
export function bindAllInteractions(features: Features, basics: CommandBasics): BoundInteractions {
  const { routing, cards, health, threads, webhooks, releases, replay, record, staffActions, leave } = features;
  return joinInteractions([
    bindFeatureInteractions(features, basics),
    bindInteractions(
      { commands: [feedCommand] },
      { ...basics, ...routing.deps, ...cards.deps, ...health.deps, ...threads.deps, ...replay.deps },
    ),
    bindInteractions(
      { commands: [statusCommand] },
      { ...basics, ...webhooks.deps, ...health.deps, appDocuments: releases.deps.appDocuments },
    ),
    bindInteractions(
      { commands: [staffCommand] },
      { ...basics, ...record.deps, ...staffActions.deps, activity: leave.staffActivity },
    ),
  ]);
}

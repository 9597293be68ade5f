import { bindCommand, type BoundCommand } from '../src/discord/command.js';
import type { CommandBasics } from '../src/features/feature.js';
import type { Features } from '../src/features/index.js';
import { alerts } from './alerts.js';
import { app } from './app.js';
import { audit } from './audit.js';
import { caseCommand } from './case.js';
import { digest } from './digest.js';
import { duty } from './duty.js';
import { exportCommand } from './export.js';
import { feed } from './feed.js';
import { leaderboard } from './leaderboard.js';
import { quota } from './quota.js';
import { record } from './record.js';
import { setup } from './setup.js';
import { staff } from './staff.js';
import { status } from './status.js';
import { store } from './store.js';
import { webhook } from './webhook.js';

/** Every slash command of the bot: what deploy-commands registers (their definitions). */
export const COMMANDS = [
  setup,
  webhook,
  feed,
  alerts,
  status,
  audit,
  app,
  store,
  record,
  caseCommand,
  staff,
  leaderboard,
  exportCommand,
  duty,
  quota,
  digest,
] as const;

/** Every slash command bound to what it uses of the features: what the dispatcher serves. */
export function bindCommands(features: Features, basics: CommandBasics): BoundCommand[] {
  const { webhooks, routing, health, cards, releases } = features;
  return [
    bindCommand(setup, { ...basics, ...webhooks.deps }),
    bindCommand(webhook, { ...basics, ...webhooks.deps }),
    bindCommand(feed, {
      ...basics,
      ...webhooks.deps,
      ...routing.deps,
      ...health.deps,
      ...cards.deps,
      ...features.threads.deps,
    }),
    bindCommand(alerts, { ...basics, ...webhooks.deps, ...health.deps }),
    bindCommand(status, { ...basics, ...webhooks.deps, ...health.deps, appRecords: releases.deps.appRecords }),
    bindCommand(audit, { ...basics, ...features.audit.deps }),
    bindCommand(app, { ...basics, ...releases.deps }),
    bindCommand(store, { ...basics, ...releases.deps }),
    bindCommand(record, { ...basics, ...features.record.deps }),
    bindCommand(caseCommand, { ...basics, ...features.record.deps }),
    bindCommand(staff, { ...basics, ...features.record.deps }),
    bindCommand(leaderboard, { ...basics, ...features.record.deps }),
    bindCommand(exportCommand, { ...basics, ...features.record.deps }),
    bindCommand(duty, { ...basics, ...features.duty.deps, health: features.health.deps.health }),
    bindCommand(quota, { ...basics, ...features.digest.deps }),
    bindCommand(digest, { ...basics, ...features.digest.deps }),
  ];
}

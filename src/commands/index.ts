import { bindCommand, type BoundCommand } from '../discord/command.js';
import { audit } from '../features/audit/commands/audit.js';
import { digest } from '../features/digest/commands/digest.js';
import { quota } from '../features/digest/commands/quota.js';
import { duty } from '../features/duty/commands/duty.js';
import type { CommandBasics } from '../features/feature.js';
import { alerts } from '../features/health/commands/alerts.js';
import type { Features } from '../features/index.js';
import { caseCommand } from '../features/record/commands/case.js';
import { exportCommand } from '../features/record/commands/export.js';
import { leaderboard } from '../features/record/commands/leaderboard.js';
import { record } from '../features/record/commands/record.js';
import { staff } from '../features/record/commands/staff.js';
import { app } from '../features/releases/commands/app.js';
import { store } from '../features/releases/commands/catalog.js';
import { setup } from '../features/webhooks/commands/setup.js';
import { webhook } from '../features/webhooks/commands/webhook.js';
import { feed } from './feed.js';
import { status } from './status.js';

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

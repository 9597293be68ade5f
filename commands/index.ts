import { alerts } from './alerts.js';
import { app } from './app.js';
import { audit } from './audit.js';
import type { BotCommand } from './context.js';
import { feed } from './feed.js';
import { setup } from './setup.js';
import { status } from './status.js';
import { store } from './store.js';
import { webhook } from './webhook.js';

/** Every slash command of the bot: what deploy-commands registers and what the dispatcher serves. */
export const COMMANDS: readonly BotCommand[] = [setup, webhook, feed, alerts, status, audit, app, store];

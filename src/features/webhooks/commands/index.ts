import type { CommandBasics, Interactions } from '../../../discord/command.js';
import type { WebhooksDeps } from '../feature.js';
import { serverKeyDialog, setupCommand } from './setup.js';
import { webhookCommand } from './webhook.js';

/** The webhooks feature's slash commands (/setup, /webhook) and the server key's dialog. */
export const webhooksInteractions: Interactions<CommandBasics & WebhooksDeps> = {
  commands: [setupCommand, webhookCommand],
  dialogs: [serverKeyDialog],
};

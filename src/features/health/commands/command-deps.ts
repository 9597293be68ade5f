import type { CommandBasics } from '../../../discord/command.js';
import type { WebhooksDeps } from '../../webhooks/index.js';
import type { HealthDeps } from '../feature.js';

/**
 * What the health feature's commands and buttons are given: its own dependencies and the webhooks feature's (an
 * alert's Re-enable and Send test act on a webhook; the held list's Route reads the routing), with the basics.
 */
export type HealthCommandDeps = CommandBasics & HealthDeps & WebhooksDeps;

import type { CommandBasics, Interactions } from '../../../discord/command.js';
import type { DigestDeps } from '../feature.js';
import { digestCommand } from './digest.js';
import { quotaCommand } from './quota.js';

/** The digest feature's slash commands: /quota and /digest. */
export const digestInteractions: Interactions<CommandBasics & DigestDeps> = { commands: [quotaCommand, digestCommand] };

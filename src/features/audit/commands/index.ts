import type { Interactions } from '../../../discord/command.js';
import { auditCommand, type AuditCommandDeps } from './audit.js';

/** The audit feature's slash command: /audit. */
export const auditInteractions: Interactions<AuditCommandDeps> = { commands: [auditCommand] };

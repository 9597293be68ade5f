import { z } from 'zod';

import type { Logger } from '../../base/logger.js';
import type { DocumentStore } from '../../store/documents.js';

/**
 * What can go wrong with a server's feed, each an incident of its own:
 * - `refusals`: deliveries to one webhook refused in a row (bad signature, stale timestamp);
 * - `intake-errors`: the bot itself failed to answer deliveries to one webhook with a 2xx (its store failed);
 * - `silence`: no delivery for a long time and the service's test ping did not arrive either;
 * - `switched-off`: the service said one webhook is switched off (to a test ping: /webhook test, a check);
 * - `channel`: Discord refuses a feed channel (403/404);
 * - `held`: entries kept aside because Discord refused them or nothing routes them;
 * - `release-poll`: the release poller's polls of the developer API keep failing (release cards stand still);
 * - `coverage`: a session runs with fewer staff on shift than the server's /duty minimum, for longer than it allows;
 * - `digest`: Discord refuses the weekly digest's post in its channel (/digest set);
 * - `duty-role`: the on-duty role (/duty role) may no longer be given (it gained a dangerous permission, it is no
 *   longer below the bot's highest role, or the admin who chose it could no longer give it themselves).
 */
export const INCIDENT_TYPES = [
  'refusals',
  'intake-errors',
  'silence',
  'switched-off',
  'channel',
  'held',
  'release-poll',
  'coverage',
  'digest',
  'duty-role',
] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

/** The alert message an incident lives in: the nonce is written down before the post, so a retry lands on it. */
const AlertMessageSchema = z.object({
  channelId: z.string(),
  /** null between deciding to post and Discord's answer. */
  messageId: z.string().nullable(),
  nonce: z.string(),
  /**
   * When the nonce was written down, and the title the post carries (every try sends it): a try later than
   * Discord's nonce window finds the post an earlier try made by them. Absent in alerts written down before.
   */
  writtenAt: z.number().optional(),
  title: z.string().optional(),
});
export type AlertMessage = z.infer<typeof AlertMessageSchema>;

export const IncidentSchema = z.object({
  guildId: z.string(),
  type: z.enum(INCIDENT_TYPES),
  /**
   * The hook id (refusals, intake-errors, silence, switched-off), the channel id (channel), or '' (held,
   * release-poll, coverage, digest, duty-role).
   */
  subject: z.string(),
  /** How the subject is named to admins: the service's webhook id, a channel mention. */
  label: z.string(),
  openedAt: z.number(),
  updatedAt: z.number(),
  /** Refusals or failures in a row; entries held; 0 where nothing is counted. */
  count: z.number(),
  escalated: z.boolean(),
  /** The last reason seen (a refusal's reason, Discord's answer, what a check found). */
  detail: z.string(),
  /** What an admin did about it from the alert's buttons, newest last (a few lines). */
  actions: z.array(z.string()),
  resolvedAt: z.number().nullable(),
  message: AlertMessageSchema.nullable(),
});
export type Incident = z.infer<typeof IncidentSchema>;

/** Incidents as store documents: one per (server, type, subject); each change atomic, in any process. */
export interface IncidentStore {
  get(key: string): Promise<Incident | undefined>;
  /**
   * Applies `change` atomically; returning undefined ends the incident's document (kept as a null tombstone, so
   * the change stays one atomic update: a resolved incident's key is reused by the next one).
   */
  update(key: string, change: (current: Incident | undefined) => Incident | undefined): Promise<Incident | undefined>;
  /** Every incident kept; one that cannot be read is left out. */
  list(): Promise<Incident[]>;
}

const KIND = 'incident';

/** The document key of an incident. */
export function incidentKey(guildId: string, type: IncidentType, subject: string): string {
  return `${guildId}:${type}:${subject}`;
}

export function keyOf(incident: Pick<Incident, 'guildId' | 'type' | 'subject'>): string {
  return incidentKey(incident.guildId, incident.type, incident.subject);
}

/** `logger` hears of an incident `list` passed over. */
export function incidentsOn(documents: DocumentStore, logger?: Logger): IncidentStore {
  return {
    async get(key) {
      const stored = await documents.get(KIND, key);
      return stored === undefined || stored === null ? undefined : IncidentSchema.parse(stored);
    },
    async update(key, change) {
      const stored = await documents.update(KIND, key, (current) => {
        const next = change(current === undefined || current === null ? undefined : IncidentSchema.parse(current));
        return next === undefined ? null : IncidentSchema.parse(next);
      });
      return stored === null ? undefined : IncidentSchema.parse(stored);
    },
    async list() {
      // An incident that cannot be read (damaged) is left out: the monitor starts, every other server's
      // incidents with it.
      return (await documents.list(KIND)).flatMap(({ key, value }) => {
        if (value === null) return [];
        const parsed = IncidentSchema.safeParse(value);
        if (parsed.success) return [parsed.data];
        logger?.warn({ incident: key }, 'a stored health incident could not be read; passed over');
        return [];
      });
    },
  };
}

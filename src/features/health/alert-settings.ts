import { z } from 'zod';

import type { Logger } from '../../base/logger.js';
import type { DocumentStore } from '../../store/documents.js';

/** How long a webhook may go without a delivery before the bot checks it with a test ping, by default. */
export const DEFAULT_SILENCE_HOURS = 12;

/** Where a server's health alerts go and whom they ping (/alerts set). */
export const AlertSettingsSchema = z.object({
  guildId: z.string(),
  channelId: z.string(),
  /** The role pinged when an alert is raised; null: nobody is pinged. */
  roleId: z.string().nullable(),
  /** No delivery for this long on a webhook: the bot sends the service's test ping to tell quiet from broken. */
  silenceHours: z.number().positive(),
});
export type AlertSettings = z.infer<typeof AlertSettingsSchema>;

/** The alert settings of every server, as store documents (shared by every process). */
export interface AlertSettingsStore {
  get(guildId: string): Promise<AlertSettings | undefined>;
  set(settings: AlertSettings): Promise<void>;
  clear(guildId: string): Promise<void>;
  /** Every server's settings; a document that cannot be read is left out. */
  list(): Promise<AlertSettings[]>;
}

const KIND = 'alert_settings';

/** `logger` hears of a document `list` passed over. */
export function alertSettingsOn(documents: DocumentStore, logger?: Logger): AlertSettingsStore {
  return {
    async get(guildId) {
      const stored = await documents.get(KIND, guildId);
      return stored === undefined ? undefined : AlertSettingsSchema.parse(stored);
    },
    async set(settings) {
      await documents.update(KIND, settings.guildId, () => AlertSettingsSchema.parse(settings));
    },
    clear: (guildId) => documents.delete(KIND, guildId),
    async list() {
      // A document that is not settings (damaged, or written by hand) is passed over: the other servers' checks
      // go on. Its own server's /alerts set writes it anew.
      return (await documents.list(KIND)).flatMap(({ key, value }) => {
        const parsed = AlertSettingsSchema.safeParse(value);
        if (parsed.success) return [parsed.data];
        logger?.warn({ guildId: key }, "a server's alert settings could not be read; its checks are passed over");
        return [];
      });
    },
  };
}

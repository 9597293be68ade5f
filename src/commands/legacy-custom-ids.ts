import type { LegacyCustomId } from '../discord/interaction-routes.js';

/**
 * The custom ids of versions before the features owned their buttons and dialogs (issue 43), and the handlers that
 * answer them now. Discord keeps a message's buttons as they were posted: a modcall card or an alert posted then
 * is clicked after the upgrade, and a /case lookup or /store page left open is paged. Each entry rewrites the start
 * of an id; what follows (a held entry's seq and page, a hook id, a draft id, a page and search) keeps its form.
 * Kept for good: an unresolved modcall card and an open alert keep their buttons as long as Discord keeps the
 * message.
 */
export const LEGACY_CUSTOM_IDS: readonly LegacyCustomId[] = [
  // A modcall card's Claim and Resolve (then /feed's).
  { from: 'feed:modcall:claim', to: 'cards:claim' },
  { from: 'feed:modcall:resolve', to: 'cards:resolve' },
  // The held list of /feed held: `feed:held:<action>:<seq>:<page>`.
  { from: 'feed:held', to: 'health:held' },
  // An alert's Re-enable, Send test and Show held: `alerts:<action>:<hook id>`.
  { from: 'alerts', to: 'health:alert' },
  // /app's previews, confirmations and dialogs: `app:<action>:<draft id>`, the developer key's `app:key`.
  { from: 'app', to: 'releases' },
  // /store's Previous and Next: `store:<prev|next>:<page>:<search>`.
  { from: 'store', to: 'releases:catalog' },
  // /case lookup's Newer and Older: `case:page:<player id>:<page>`.
  { from: 'case:page', to: 'record:case-page' },
  // /setup's server key dialog.
  { from: 'setup:server-key', to: 'webhooks:server-key' },
];

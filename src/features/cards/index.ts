import type { DocumentStore } from '../../store/documents.js';
import { CardDocuments } from './card-documents.js';

/** What other features and the shared commands may use of the living cards: /feed mention (and its escalation). */
export { setEventMention, type FeedMentionDeps } from './commands/feed/mention.js';

/**
 * Where each case's card is, as a message link (`server:number` → link), for the cases the feed posted a card of
 * and still follows (the conduct guard's alerts link each case to its card).
 */
export async function caseCardLinks(
  documents: DocumentStore,
  guildId: string,
  cases: ReadonlyArray<{ server: string; number: number }>,
): Promise<Map<string, string>> {
  const records = new CardDocuments(documents);
  const links = new Map<string, string>();
  for (const { server, number } of cases) {
    const card = await records.subject(guildId, `case:${server}:${number}`);
    if (card) links.set(`${server}:${number}`, messageLink(guildId, card.channelId, card.messageId));
  }
  return links;
}

function messageLink(guildId: string, channelId: string, messageId: string): string {
  return `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
}

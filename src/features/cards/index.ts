/** What other features and the shared commands may use of the living cards: /feed mention (and its escalation). */
export { setEventMention, type FeedMentionDeps } from './commands/feed/mention.js';

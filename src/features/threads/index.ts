/** What other features and the shared commands may use of the session threads. */
export { setSessionThreads, type FeedThreadsDeps } from './commands/feed/threads.js';
export type { SessionCardPosted } from './thread-documents.js';

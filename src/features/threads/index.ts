/** What other features may use of the session threads. */
export type { SessionCardPosted } from './thread-records.js';

/**
 * The story generator lives in src/ now: the delivery simulator (`npm run simulate`) ships to admins and must not
 * import from test/. Tests and the fake service keep importing it from here.
 */
export { generateEventStream, type EventStreamOptions } from '../../../src/simulate/event-stream.js';

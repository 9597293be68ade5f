/** Milliseconds since the Unix epoch. Passed in wherever time matters, so tests can move it. */
export type Clock = () => number;

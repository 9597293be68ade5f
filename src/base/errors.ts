/**
 * An error whose message is written for the person who caused it: shown to them as it is (ephemerally, in
 * Discord). It must never carry a key, a secret or a signature. Every other error is logged with context and
 * answered with a generic line.
 */
export class UserFacingError extends Error {
  override readonly name: string = 'UserFacingError';
}

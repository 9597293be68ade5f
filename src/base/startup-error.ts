/**
 * A reason the bot cannot start that the host must fix (a second process on the SQLite file, a token Discord
 * refuses): main.ts prints its message as one line and exits 1, without a stack trace. It never carries a secret.
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** What a server process of the intake groups (lib/target-server.ts) serves, whichever kind it is. */
export interface RunningServer {
  url: string;
  /** Where deliveries go: /webhooks/<hookId>. */
  path: string;
  /** Deliveries stored so far (the bot: its outbox), or requests answered (bare Express). */
  handled(): number | Promise<number>;
  stop(): Promise<void>;
}

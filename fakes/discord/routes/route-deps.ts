/**
 * What the fake's route handlers share: its state and identity.
 */
import type { APIUser } from 'discord.js';

import type { AttachmentStore } from '../attachment-store.js';
import type { CommandStore } from '../command-store.js';
import type { GatewayServer } from '../gateway.js';
import type { GuildStore } from '../guild-store.js';
import type { InteractionStore } from '../interaction-store.js';
import type { MessageStore } from '../message-store.js';

/** The state and identity route handlers work with. */
export interface RouteDeps {
  readonly guilds: GuildStore;
  readonly messages: MessageStore;
  readonly interactions: InteractionStore;
  readonly commands: CommandStore;
  /** Files attached to command options, served at their CDN address. */
  readonly attachments: AttachmentStore;
  readonly gateway: GatewayServer;
  readonly bot: APIUser;
  readonly applicationId: string;
  readonly applicationFlags: number;
  /** The ws:// URL `GET /gateway/bot` hands out. */
  readonly gatewayUrl: () => string;
  /** The shard count `GET /gateway/bot` recommends. */
  readonly shards: number;
  /** `session_start_limit.max_concurrency` of `GET /gateway/bot`. */
  readonly maxConcurrency: number;
  /** Called when a route changed state a test may wait for (a message, a callback). */
  readonly onChange: () => void;
}

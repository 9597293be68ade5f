import {
  GatewayDispatchEvents,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  Routes,
  Status,
  type APIInteraction,
  type APIInteractionResponse,
  type Client,
  type Interaction,
} from 'discord.js';

import type { Logger } from '../base/logger.js';
import { RUNTIME_TIMERS, type Timers } from '../base/timers.js';
import { toLoggableError } from './log-error.js';

/** What the user sees for a command or click that came in before the bot was ready to run it. */
export const STILL_STARTING =
  'The bot is still starting (connecting to Discord); nothing was done. Please send that again in a few seconds.';

/**
 * How long a queued interaction may wait for discord.js to hand it over before it is answered with
 * {@link STILL_STARTING}: Discord allows 3 s from its own send for the first answer, and the command still needs
 * time to run if it is handed over just before this.
 */
const ANSWER_QUEUED_AFTER_MS = 1_500;
/** Answered interactions remembered at most; each is forgotten once discord.js hands it over. */
const MAX_REMEMBERED = 1_000;

export interface QueuedInteractions {
  /**
   * True when `interaction` was already answered with {@link STILL_STARTING} while discord.js queued it: the
   * dispatcher passes over it. Else its waiting answer, if any, is called off and it is the dispatcher's to run.
   */
  answeredWhileQueued(interaction: Interaction): boolean;
  /** Stops listening and calls off the waiting answers. */
  detach(): void;
}

/**
 * Until every gateway shard is ready after a start (about 5 s a shard with most bots' `max_concurrency` of 1),
 * discord.js queues the interactions that arrive on the shards already up and hands them over once all are
 * ready (its WebSocketManager queues every dispatch while its status is not Ready). Discord gives an
 * interaction 3 s for its first answer: a command queued longer failed for the user ("The application did not
 * respond") and then still ran when handed over, its change made unseen.
 *
 * So each interaction that arrives while the gateway is not ready is watched: if discord.js has not handed it
 * over within {@link ANSWER_QUEUED_AFTER_MS}, it is answered from its raw payload (the interaction's own callback
 * route, as discord.js answers) with an ephemeral {@link STILL_STARTING} (an autocomplete with no choices),
 * and the dispatcher passes over it when it is handed over later: it is never run. Raw gateway events are
 * discord.js's public `client.ws` events, emitted before the packet is queued.
 */
export function watchQueuedInteractions(
  client: Client,
  logger: Logger,
  timers: Timers = RUNTIME_TIMERS,
): QueuedInteractions {
  const waiting = new Map<string, unknown>();
  const answered = new Set<string>();

  const answer = (raw: APIInteraction) => {
    waiting.delete(raw.id);
    if (answered.size >= MAX_REMEMBERED) {
      const [oldest] = answered;
      if (oldest !== undefined) answered.delete(oldest);
    }
    answered.add(raw.id);
    logger.info(
      { guildId: raw.guild_id ?? null, interactionType: raw.type },
      'interaction queued by discord.js until every gateway shard is ready: answered that the bot is still starting',
    );
    client.rest
      .post(Routes.interactionCallback(raw.id, raw.token), { body: stillStartingFor(raw), auth: false })
      .catch((error: unknown) => {
        logger.warn(
          { guildId: raw.guild_id ?? null, err: toLoggableError(error) },
          'answering a queued interaction failed (too late, or Discord refused it)',
        );
      });
  };

  const onInteraction = (raw: APIInteraction) => {
    // discord.js queues the packet on exactly this condition (WebSocketManager#handlePacket).
    if (client.ws.status === Status.Ready) return;
    waiting.set(
      raw.id,
      timers.setTimeout(() => answer(raw), ANSWER_QUEUED_AFTER_MS),
    );
  };
  client.ws.on(GatewayDispatchEvents.InteractionCreate, onInteraction);

  return {
    answeredWhileQueued(interaction) {
      const timer = waiting.get(interaction.id);
      if (timer !== undefined) {
        timers.clearTimeout(timer);
        waiting.delete(interaction.id);
      }
      return answered.delete(interaction.id);
    },
    detach() {
      client.ws.off(GatewayDispatchEvents.InteractionCreate, onInteraction);
      for (const timer of waiting.values()) timers.clearTimeout(timer);
      waiting.clear();
    },
  };
}

function stillStartingFor(raw: APIInteraction): APIInteractionResponse {
  if (raw.type === InteractionType.ApplicationCommandAutocomplete) {
    return { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices: [] } };
  }
  return {
    type: InteractionResponseType.ChannelMessageWithSource,
    data: { content: STILL_STARTING, flags: MessageFlags.Ephemeral, allowed_mentions: { parse: [] } },
  };
}

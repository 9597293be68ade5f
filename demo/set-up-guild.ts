import {
  chatInputCommand,
  commandOption,
  modalSubmit,
  type AddedGuild,
  type CommandOptionValue,
  type FakeDiscord,
  type InteractionDraft,
} from '../fakes/discord/index.js';
import type { FakeService, WebhookView } from '../fakes/service/index.js';
import { DEMO_DEFAULT_CHANNEL, DEMO_GUILD, DEMO_ROUTES } from './demo-guild.js';

export interface GuildSetupDeps {
  discord: FakeDiscord;
  service: FakeService;
  guild: AddedGuild;
  /** Prints one progress line. */
  say: (line: string) => void;
  /** Makes a reply readable in a terminal: `<#id>` → `#name`, `<@&id>` → `@Role`. */
  plain: (text: string) => string;
}

export interface GuildSetup {
  /** The game server whose key the admin pasted into /setup: the `server` of its deliveries. */
  serverId: string;
  webhook: WebhookView;
}

/** How long one admin command may take (the bot calls the fake service for some). */
const ANSWER_TIMEOUT_MS = 15_000;

/**
 * Sets the demo guild up the way an admin does, through the fake gateway and the bot's own command handlers:
 * /setup (the key typed into the modal), /webhook register, /feed default and /feed set, /feed mention for
 * modcalls, /feed threads for sessions, then /webhook test. Any answer other than the success line stops the demo with that answer.
 */
export async function setUpDemoGuild(deps: GuildSetupDeps): Promise<GuildSetup> {
  const { discord, service, guild, say, plain } = deps;
  const channel = (name: string) => {
    const id = guild.channels[name];
    if (!id) throw new Error(`the demo guild has no #${name}`);
    return id;
  };
  const ask = async (label: string, draft: InteractionDraft, expected: RegExp): Promise<string> => {
    const outcome = await discord.dispatchInteraction(draft, { timeoutMs: ANSWER_TIMEOUT_MS });
    const text = outcome.reply?.content ?? '';
    if (!expected.test(text))
      throw new Error(`${label} did not succeed; the bot answered: ${plain(text) || '(nothing)'}`);
    say(`${label} → ${plain(text)}`);
    return text;
  };
  const command = (name: string, subcommand: string | undefined, options: CommandOptionValue[] = []) =>
    chatInputCommand({ name, ...(subcommand ? { subcommand } : {}), options, as: 'admin', guildId: guild.id });

  // The key is the game server's, issued by the (fake) service; the admin pastes it into the modal.
  const key = service.issueKey();
  const modal = await discord.dispatchInteraction(command('setup', undefined), { timeoutMs: ANSWER_TIMEOUT_MS });
  const customId = (modal.callback.data as { custom_id?: unknown } | undefined)?.custom_id;
  if (typeof customId !== 'string') throw new Error('/setup did not open the server key modal');
  say('/setup → the bot asks for the server key in a modal; the admin pastes it (never shown here)');
  await ask(
    '/setup modal submitted',
    modalSubmit({ customId, fields: { key }, layout: 'label', as: 'admin', guildId: guild.id }),
    /^Server key saved\./,
  );

  await ask(
    '/webhook register events:all',
    command('webhook', 'register', [commandOption.string('events', 'all')]),
    /^Webhook `[^`]+` registered/,
  );
  const [webhook] = service.webhooks();
  if (!webhook) throw new Error('/webhook register left no webhook at the service');

  await ask(
    `/feed default channel:#${DEMO_DEFAULT_CHANNEL}`,
    command('feed', 'default', [commandOption.channel('channel', channel(DEMO_DEFAULT_CHANNEL))]),
    /^Events without a channel of their own now go to/,
  );
  for (const [event, target] of DEMO_ROUTES) {
    await ask(
      `/feed set event:${event} channel:#${target}`,
      command('feed', 'set', [commandOption.string('event', event), commandOption.channel('channel', channel(target))]),
      new RegExp(`^${event.replace('.', '\\.')} now goes to`),
    );
  }
  const roleId = guild.roles[DEMO_GUILD.moderatorRole.name];
  if (!roleId) throw new Error('the demo guild has no moderator role');
  await ask(
    `/feed mention event:modcall role:@${DEMO_GUILD.moderatorRole.name}`,
    command('feed', 'mention', [commandOption.string('event', 'modcall'), commandOption.role('role', roleId)]),
    /^modcall now pings/,
  );
  await ask(
    '/feed threads event:session on:true',
    command('feed', 'threads', [commandOption.string('event', 'session'), commandOption.boolean('on', true)]),
    /^Each session's card now opens a thread/,
  );
  await ask('/webhook test', command('webhook', 'test'), /^Ping received and verified/);

  return { serverId: service.serverIdOf(key), webhook };
}

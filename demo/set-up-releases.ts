import { chatInputCommand, commandOption, modalSubmit } from '../fakes/discord/index.js';
import { DEMO_APP, DEMO_GUILD, DEMO_RELEASE_CHANNEL } from './demo-guild.js';
import type { GuildSetupDeps } from './set-up-guild.js';

/** How long one command may take (the bot calls the fake service for some). */
const ANSWER_TIMEOUT_MS = 15_000;

/**
 * The studio side of the demo, through the bot's own commands: the studio's developer key into /app key (a
 * dialog), then /app watch for its app in #releases, pinging @Developers. Returns the app's id.
 */
export async function setUpReleaseCards(deps: GuildSetupDeps): Promise<number> {
  const { discord, service, guild, say, plain } = deps;
  const key = service.issueDeveloperKey(DEMO_APP.account);
  const appId = service.addApp(key, {
    name: DEMO_APP.name,
    versions: DEMO_APP.versions.map((version) => ({ ...version, submission: DEMO_APP.submission })),
  });
  const asAdmin = { as: 'admin' as const, guildId: guild.id };
  const opened = await discord.dispatchInteraction(chatInputCommand({ name: 'app', subcommand: 'key', ...asAdmin }));
  const customId = (opened.callback.data as { custom_id?: unknown } | undefined)?.custom_id;
  if (typeof customId !== 'string') throw new Error('/app key did not open the developer key dialog');
  const saved = await discord.dispatchInteraction(
    modalSubmit({ customId, fields: { key }, layout: 'label', ...asAdmin }),
    { timeoutMs: ANSWER_TIMEOUT_MS },
  );
  const savedText = saved.reply?.content ?? '';
  if (!savedText.startsWith('Developer key saved')) throw new Error(`/app key did not succeed: ${plain(savedText)}`);
  say(`/app key dialog submitted (the studio's developer key, never shown here) → ${plain(savedText)}`);

  const channelId = guild.channels[DEMO_RELEASE_CHANNEL];
  const roleId = guild.roles[DEMO_GUILD.developerRole.name];
  if (!channelId || !roleId) throw new Error('the demo guild has no #releases or @Developers');
  const watched = await discord.dispatchInteraction(
    chatInputCommand({
      name: 'app',
      subcommand: 'watch',
      options: [
        commandOption.string('app', String(appId)),
        commandOption.channel('channel', channelId),
        commandOption.role('role', roleId),
      ],
      ...asAdmin,
    }),
    { timeoutMs: ANSWER_TIMEOUT_MS },
  );
  const watchedText = watched.reply?.content ?? '';
  if (!watchedText.startsWith('Release cards of')) throw new Error(`/app watch did not succeed: ${plain(watchedText)}`);
  say(
    `/app watch app:${DEMO_APP.name} channel:#${DEMO_RELEASE_CHANNEL} role:@${DEMO_GUILD.developerRole.name} → ${plain(watchedText)}`,
  );
  return appId;
}

import type { FakeDiscord, FakeMessage } from '../../fakes/discord/index.js';

/**
 * One kind of health alert in an alert channel, as admins see it: its messages (those whose title includes
 * `titled`, resolved ones too), and a wait for the last of them to carry a given title.
 */
export function alertsOf(discord: FakeDiscord, channelId: string, titled: string) {
  const messages = (): FakeMessage[] =>
    discord.messages(channelId).filter((message) => (message.api.embeds[0]?.title ?? '').includes(titled));
  const lastTitled = (title: string, timeoutMs = 15_000): Promise<FakeMessage> =>
    discord.waitFor(
      () => {
        const alert = messages().at(-1);
        return alert?.api.embeds[0]?.title === title ? alert : false;
      },
      timeoutMs,
      `an alert titled "${title}"`,
    );
  return { messages, lastTitled };
}

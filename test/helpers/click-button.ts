import {
  buttonClick,
  type FakeDiscord,
  type FakeMessage,
  type InteractionOutcome,
  type Invoker,
} from '../../fakes/discord/index.js';

/** Clicks the button labelled `label` on a message, as `as`, and waits for the bot's answer. */
export async function clickButton(
  discord: FakeDiscord,
  guildId: string,
  message: FakeMessage,
  label: string,
  as: Invoker = 'admin',
): Promise<InteractionOutcome> {
  const button = (message.components as Array<{ components?: Array<{ label?: string; custom_id?: string }> }>)
    .flatMap((row) => row.components ?? [])
    .find((component) => component.label === label);
  if (!button?.custom_id) throw new Error(`no ${label} button on message ${message.id}: ${message.content}`);
  return discord.dispatchInteraction(buttonClick({ customId: button.custom_id, message, as, guildId }), {
    timeoutMs: 15_000,
  });
}

import { buttonClick, type FakeDiscord, type FakeMessage } from '../fakes/discord/index.js';
import { CLAIM_BUTTON_ID } from '../src/features/cards/modcall-message.js';

/** The demo moderator's name. */
const MODERATOR_NAME = 'Officer Reyes';
/** How often the demo moderator looks for a modcall to claim. */
const LOOK_EVERY_MS = 500;

/**
 * A demo moderator (a member with the moderator role) who claims the first modcall card they see, through the
 * same button click a person makes in Discord: the preview then shows the card as claimed. Once.
 */
export function claimFirstModcall(options: {
  discord: FakeDiscord;
  guildId: string;
  channelId: string;
  roleId: string;
  say: (line: string) => void;
  /** Told of the moderator's account, so the preview names their mention. */
  onMember: (userId: string, name: string) => void;
}): () => void {
  const { discord, guildId, channelId } = options;
  const moderator = discord.addMember(guildId, { username: MODERATOR_NAME, roleIds: [options.roleId] });
  options.onMember(moderator, MODERATOR_NAME);
  let claiming = false;
  const timer = setInterval(() => {
    if (claiming) return;
    const card = discord.messages(channelId).find(isOpenCard);
    if (!card) return;
    claiming = true;
    clearInterval(timer);
    discord
      .dispatchInteraction(
        buttonClick({ customId: CLAIM_BUTTON_ID, message: card, as: { userId: moderator }, guildId }),
      )
      .then(() => options.say(`a moderator (Officer Reyes) claimed a modcall card in #modcalls with its Claim button`))
      .catch((error: unknown) =>
        options.say(`claiming a modcall failed: ${error instanceof Error ? error.message : String(error)}`),
      );
  }, LOOK_EVERY_MS);
  return () => clearInterval(timer);
}

/** A modcall card nobody has claimed yet (its buttons are there and its status says it waits). */
function isOpenCard(message: FakeMessage): boolean {
  return message.components.length > 0 && JSON.stringify(message.embeds).includes('Waiting for a moderator');
}

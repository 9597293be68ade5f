import type { AddedGuild, FakeDiscord, FakeMessage } from '../fakes/discord/index.js';

/**
 * What a scene the demo plays after the record answers is given (show-staff-lifecycle.ts, show-oversight.ts): the
 * fake Discord and the demo guild it acts in as the admin and members would, and where it tells what it did.
 */
export interface DemoSceneOptions {
  discord: FakeDiscord;
  guild: AddedGuild;
  say: (line: string) => void;
  /** Makes a reply readable in a terminal: `<#id>` → `#name`, `<@&id>` → `@Role`. */
  plain: (text: string) => string;
  /** Told of a member the scene adds, so the preview names their mention. */
  onMember: (userId: string, name: string) => void;
  /** The admin's ephemeral answers worth showing: the preview's replies panel. */
  onReply: (reply: FakeMessage) => void;
}

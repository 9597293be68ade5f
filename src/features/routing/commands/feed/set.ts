import type { ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { readFeedChannel, requireFeedChannel } from '../../../../discord/feed-channel.js';
import { replyEphemeral } from '../../../../discord/reply.js';
import type { GuildSettings } from '../../../../store/guild-settings.js';
import { resolveRoute } from '../../../../store/routing-rules.js';
import { replayOffer } from '../../../replay/index.js';
import {
  describeScope,
  describeTarget,
  hasRule,
  readRuleScope,
  withoutRule,
  withRule,
  type RuleScope,
} from '../../route-rules.js';
import type { FeedRoutingDeps } from '../command-deps.js';

function scopeOf(interaction: ChatInputCommandInteraction): RuleScope {
  return readRuleScope({
    event: interaction.options.getString('event', true),
    server: interaction.options.getString('server'),
    caseType: interaction.options.getString('case-type'),
  });
}

/** /feed set event channel [server] [case-type] [mention]: a rule that sends those events to a channel. */
export async function setEventChannel(
  interaction: ChatInputCommandInteraction,
  ctx: FeedRoutingDeps,
  guildId: string,
): Promise<void> {
  const scope = scopeOf(interaction);
  const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
  await requireFeedChannel(channel);
  const role = interaction.options.getRole('mention');
  // @everyone's id is the guild's; Discord's allowed_mentions cannot name it as a role, and it should not be pinged.
  if (role?.id === guildId) throw new UserFacingError('Choose a role other than @everyone.');
  // update() re-routes what waits by the new rules in the same transaction, and tries broken channels again.
  await ctx.guilds.update(guildId, (settings) => withRule(settings, scope, channel.id, role?.id));
  const hooks = await ctx.hooks.listForGuild(guildId);
  const delivered = hooks.some((hook) => scope.event === undefined || hook.events.includes(scope.event));
  const note = delivered
    ? ''
    : ` No webhook of this server delivers ${scope.event ?? 'events'} yet: /webhook register.`;
  const ping = role ? ` They ping <@&${role.id}>.` : '';
  // Events of the rule posted elsewhere (or muted) before it may be replayed into the channel it names now.
  await replyEphemeral(
    interaction,
    `${describeScope(scope)} now goes to <#${channel.id}>.${ping}${note}`,
    replayOffer(channel.id, ctx.replays),
  );
}

/** /feed off event [server] [case-type]: those events are stored and counted as muted, never posted. */
export async function turnEventOff(
  interaction: ChatInputCommandInteraction,
  ctx: FeedRoutingDeps,
  guildId: string,
): Promise<void> {
  const scope = scopeOf(interaction);
  await ctx.guilds.update(guildId, (settings) => withRule(settings, scope, null));
  await replyEphemeral(
    interaction,
    `${describeScope(scope)} is now off: not posted, counted as muted in /status. /feed clear with the same ` +
      'options turns it on again.',
  );
}

/** /feed clear event [server] [case-type]: removes that rule; the events follow the next matching rule. */
export async function clearRule(
  interaction: ChatInputCommandInteraction,
  ctx: FeedRoutingDeps,
  guildId: string,
): Promise<void> {
  const scope = scopeOf(interaction);
  let found = false;
  const settings = await ctx.guilds.update(guildId, (current) => {
    found = hasRule(current, scope);
    return found ? withoutRule(current, scope) : current;
  });
  if (!found) {
    throw new UserFacingError(`There is no rule for ${describeScope(scope)}: /feed show lists the rules.`);
  }
  await replyEphemeral(interaction, `Rule removed: ${describeScope(scope)} now ${whereNow(settings, scope)}.`);
}

/** Where the scope's deliveries go now that its own rule is gone, in words. */
function whereNow(settings: GuildSettings, scope: RuleScope): string {
  // An `all events` scope has no single event to resolve; the default channel is what is left for it.
  if (scope.event === undefined) return 'follows the other rules (/feed show)';
  const decision = resolveRoute(settings, { ...scope, event: scope.event });
  if (decision === 'muted') return `follows another rule: ${describeTarget(null)}`;
  return decision ? `goes to <#${decision.channelId}>` : 'has no channel: its events wait (/feed default)';
}

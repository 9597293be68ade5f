import {
  ButtonStyle,
  ComponentType,
  time,
  TimestampStyles,
  type APIActionRowComponent,
  type APIButtonComponent,
} from 'discord.js';

import { truncateText } from '../../base/truncate-text.js';
import { customIdOf } from '../../discord/command.js';
import type { HeldEntry } from '../../store/deliveries.js';
import type { GuildSettingsStore } from '../../store/guild-settings.js';
import type { HeldEntries } from '../../store/held-entries.js';
import { channelOf, resolveRoute } from '../../store/routing-rules.js';
import { describeEntry } from './describe-entry.js';

/** Entries on one page of /feed held: each has a row of buttons, and Discord allows five rows (one for paging). */
export const HELD_PER_PAGE = 4;

/** The held list's buttons' handler: their custom ids are `health:held:<action>:<seq>:<page>`. */
export const HELD_BUTTON = 'health:held';

/** What a held-entry button does. */
export type HeldAction = 'retry' | 'route' | 'discard' | 'confirm' | 'cancel' | 'page';

export function heldButtonId(action: HeldAction, seq: number, page: number): string {
  return customIdOf(HELD_BUTTON, action, seq, page);
}

/** What a held-entry button's id carries after `health:held:`. */
export function readHeldButtonArgs(args: string): { action: string; seq: number; page: number } {
  const [action = '', seq = '', page = ''] = args.split(':');
  return { action, seq: Number(seq), page: Math.max(1, Number(page) || 1) };
}

/** Why an entry is held, in words. */
export function describeHeldReason(entry: HeldEntry): string {
  switch (entry.kind) {
    case 'unrouted':
      return `no channel is set for ${entry.event}`;
    case 'broken':
      return `Discord refuses <#${entry.channelId ?? ''}>: ${truncateText(entry.detail, 120)}`;
    case 'refused':
      return `Discord refused the message: ${truncateText(entry.detail, 120)}`;
  }
}

/** Where an entry would go by today's routes, when that is somewhere new for it. */
export function newRouteOf(entry: HeldEntry, settings: Parameters<typeof resolveRoute>[0]): string | undefined {
  const channelId = channelOf(resolveRoute(settings, entry));
  return channelId !== undefined && channelId !== entry.channelId ? channelId : undefined;
}

export interface HeldPage {
  content: string;
  components: Array<APIActionRowComponent<APIButtonComponent>>;
}

/**
 * One page of the server's held entries, oldest first: event, when it came, why it is held, what it is about
 * (case, caller, session or shift, delivery id), and per entry Retry (to its own channel), Route (when today's
 * routes send it somewhere new) and Discard.
 */
export async function renderHeldPage(
  deps: { deliveries: Pick<HeldEntries, 'listHeld' | 'statusOf'>; guilds: Pick<GuildSettingsStore, 'get'> },
  guildId: string,
  page: number,
  note?: string,
): Promise<HeldPage> {
  const status = await deps.deliveries.statusOf(guildId);
  const total = status.heldRefused + status.heldBroken + Object.values(status.unrouted).reduce((sum, n) => sum + n, 0);
  const pages = Math.max(1, Math.ceil(total / HELD_PER_PAGE));
  const shown = Math.min(Math.max(1, page), pages);
  const entries = await deps.deliveries.listHeld(guildId, {
    offset: (shown - 1) * HELD_PER_PAGE,
    limit: HELD_PER_PAGE,
  });
  const lines = note ? [note] : [];
  if (entries.length === 0) {
    lines.push('Nothing is held: every delivery has been posted or is waiting its turn.');
    return { content: lines.join('\n'), components: [] };
  }
  lines.push(`**Held deliveries** (${total}, page ${shown} of ${pages}, oldest first)`);
  const settings = await deps.guilds.get(guildId);
  const rows: HeldPage['components'] = [];
  for (const [index, entry] of entries.entries()) {
    const n = index + 1;
    const received = time(Math.floor(entry.receivedAt / 1000), TimestampStyles.ShortDateTime);
    lines.push(`**${n}.** ${entry.event} · received ${received} · ${describeHeldReason(entry)}`);
    // Several held entries of one event differ only here: the case, caller, session or shift, and the delivery.
    lines.push(`> ${describeEntry(entry)}`);
    const buttons: APIButtonComponent[] = [];
    if (entry.kind !== 'unrouted')
      buttons.push(button(`Retry ${n}`, heldButtonId('retry', entry.seq, shown), ButtonStyle.Primary));
    const route = newRouteOf(entry, settings);
    if (route) buttons.push(button(`Route ${n}`, heldButtonId('route', entry.seq, shown), ButtonStyle.Secondary));
    buttons.push(button(`Discard ${n}`, heldButtonId('discard', entry.seq, shown), ButtonStyle.Danger));
    rows.push({ type: ComponentType.ActionRow, components: buttons });
  }
  if (pages > 1) {
    const previous = button('Previous', heldButtonId('page', 0, shown - 1), ButtonStyle.Secondary, shown === 1);
    const next = button('Next', heldButtonId('page', 1, shown + 1), ButtonStyle.Secondary, shown === pages);
    rows.push({ type: ComponentType.ActionRow, components: [previous, next] });
  }
  return { content: truncateText(lines.join('\n'), 2000), components: rows };
}

/** The confirmation of a discard: what will be dropped, Confirm and Cancel. */
export function renderDiscardConfirmation(entry: HeldEntry, page: number): HeldPage {
  const received = time(Math.floor(entry.receivedAt / 1000), TimestampStyles.ShortDateTime);
  return {
    content:
      `Discard ${entry.event} received ${received}, ${describeEntry(entry)} (${describeHeldReason(entry)})? ` +
      'It will never be posted, and the service will not send it again.',
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          button('Confirm discard', heldButtonId('confirm', entry.seq, page), ButtonStyle.Danger),
          button('Cancel', heldButtonId('cancel', entry.seq, page), ButtonStyle.Secondary),
        ],
      },
    ],
  };
}

function button(label: string, customId: string, style: ButtonStyle, disabled = false): APIButtonComponent {
  return {
    type: ComponentType.Button,
    style: style as ButtonStyle.Primary,
    label,
    custom_id: customId,
    ...(disabled ? { disabled: true } : {}),
  };
}

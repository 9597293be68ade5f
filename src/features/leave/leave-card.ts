import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
} from 'discord.js';

import { customIdOf } from '../../discord/command.js';
import { dayStamp, lastDayStamp } from './leave-dates.js';
import type { LeaveRequest } from './store/leave-store.js';

/** Approve and Deny on a request's card: `leave:approve:<number>`, `leave:deny:<number>`. */
export const APPROVE_BUTTON_ID = 'leave:approve';
export const DENY_BUTTON_ID = 'leave:deny';

const COLOURS = { pending: 0xf1c40f, approved: 0x2ecc71, denied: 0xe74c3c, cancelled: 0x95a5a6 } as const;

/** What a request is called: leave of absence or reduced activity. */
export function kindName(request: Pick<LeaveRequest, 'kind'>): string {
  return request.kind === 'leave' ? 'Leave of absence' : 'Reduced activity';
}

/** Where a request stands, in a line (the card's and /leave list's). */
export function describeState(request: LeaveRequest, now: number): string {
  switch (request.state) {
    case 'pending':
      return 'Waiting for a leave manager';
    case 'denied':
      return `Denied by <@${request.decidedBy ?? '?'}>`;
    case 'cancelled':
      return 'Cancelled by its member';
    case 'approved': {
      const by = `approved by <@${request.decidedBy ?? '?'}>`;
      if (request.endsAt < request.plannedEnd) return `Ended early ${dayStamp(request.endsAt)}, ${by}`;
      if (now < request.startsAt) return `Approved, starts ${dayStamp(request.startsAt)} (${by})`;
      if (now < request.endsAt) return `Under way (${by})`;
      return `Over (${by})`;
    }
  }
}

/** A request's card as Discord takes it: the embed, and its buttons while pending. */
export interface LeaveCard {
  embeds: APIEmbed[];
  components: Array<APIActionRowComponent<APIButtonComponent>>;
  allowed_mentions: { parse: [] };
}

/** A request's card: who, when, why, and where it stands; Approve and Deny while it is pending. */
export function renderLeaveCard(request: LeaveRequest, now: number): LeaveCard {
  const embed: APIEmbed = {
    title: `${kindName(request)} · request #${request.number}`,
    color: COLOURS[request.state],
    description: `<@${request.memberId}>`,
    fields: [
      { name: 'From', value: dayStamp(request.startsAt), inline: true },
      { name: 'To (last day)', value: lastDayStamp(request.plannedEnd), inline: true },
      // The member's own words: a code span would hide nothing, and allowed_mentions keeps them from pinging.
      { name: 'Reason', value: request.reason.slice(0, 1024) || '—' },
      { name: 'State', value: describeState(request, now) },
    ],
    footer: { text: `Leave request #${request.number}` },
  };
  const buttons: LeaveCard['components'] =
    request.state === 'pending'
      ? [
          {
            type: ComponentType.ActionRow,
            components: [
              {
                type: ComponentType.Button,
                style: ButtonStyle.Success,
                label: 'Approve',
                custom_id: customIdOf(APPROVE_BUTTON_ID, request.number),
              },
              {
                type: ComponentType.Button,
                style: ButtonStyle.Danger,
                label: 'Deny',
                custom_id: customIdOf(DENY_BUTTON_ID, request.number),
              },
            ],
          },
        ]
      : [];
  return { embeds: [embed], components: buttons, allowed_mentions: { parse: [] } };
}

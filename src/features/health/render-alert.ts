import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from 'discord.js';

import { truncateText } from '../../base/truncate-text.js';
import { customIdOf } from '../../discord/command.js';
import type { MessagePayload } from '../../discord/message-payload.js';
import { relativeTime } from '../../discord/relative-time.js';
import { formatDuration } from '../../embeds/time.js';
import type { Incident } from './incidents.js';

/** The service switches a webhook off after this many failed deliveries in a row (upstream-api.md §4.2). */
export const SERVICE_FAILURE_LIMIT = 20;
/** A streak of failures is worth an alert at this length, and an escalation at the second. */
export const STREAK_WARNING = 5;
export const STREAK_ESCALATION = 15;

/** An alert message: an embed, the role it pings, and the buttons that act on it. */
export interface AlertPayload extends MessagePayload {
  components: Array<APIActionRowComponent<APIButtonComponent>>;
}

const COLOUR = { warning: 0xffbf00, escalated: 0xed4245, resolved: 0x57f287 } as const;

/** The buttons an alert can carry; their clicks are answered by commands/alert-buttons.ts. */
export type AlertAction = 'reenable' | 'test' | 'held';

/** The alerts' buttons' handler: their custom ids are `health:alert:<action>:<incident subject>`. */
export const ALERT_BUTTON = 'health:alert';

/** An alert button's custom id (the subject: a hook id for reenable and test; nothing for held). */
export function alertButtonId(action: AlertAction, subject = ''): string {
  return customIdOf(ALERT_BUTTON, action, subject);
}

/**
 * The alert message of an incident in its current state. It names the subject and the facts (how many, since
 * when, the last reason) and what to check; resolved, it says after how long and loses its buttons.
 */
export function renderAlert(incident: Incident, roleId: string | null): AlertPayload {
  const resolved = incident.resolvedAt !== null;
  const { title, lines, actions } = describe(incident);
  const description = [
    ...(resolved && incident.resolvedAt !== null
      ? [
          `**Resolved after ${formatDuration((incident.resolvedAt - incident.openedAt) / 1000)}** (${relativeTime(incident.resolvedAt)}).`,
        ]
      : []),
    ...lines,
    ...(incident.actions.length > 0 ? ['', ...incident.actions.slice(-3)] : []),
  ].join('\n');
  // The role is pinged (and allowed) while the incident is open; a resolved alert names nobody.
  const pinged = roleId && !resolved ? roleId : null;
  return {
    ...(pinged ? { content: `<@&${pinged}>` } : { content: '' }),
    embeds: [
      {
        title: truncateText(`${resolved ? 'Resolved: ' : ''}${title}`, 256),
        description: truncateText(description, 4096),
        color: resolved ? COLOUR.resolved : incident.escalated ? COLOUR.escalated : COLOUR.warning,
        footer: { text: `Opened` },
        timestamp: new Date(incident.openedAt).toISOString(),
      },
    ],
    allowed_mentions: pinged ? { parse: [], roles: [pinged] } : { parse: [] },
    components: resolved || actions.length === 0 ? [] : [buttonRow(actions, incident.subject)],
  };
}

function describe(incident: Incident): { title: string; lines: string[]; actions: AlertAction[] } {
  const since = relativeTime(incident.openedAt);
  const last = relativeTime(incident.updatedAt);
  switch (incident.type) {
    case 'refusals':
      return {
        title: `Deliveries refused: webhook ${incident.label}`,
        lines: [
          `**${incident.count} in a row** refused since ${since} (last ${last}: ${incident.detail}).`,
          limitSentence(incident.count),
          'Check: the secret stored here is the one the service signs with (after a new secret, /webhook remove and ' +
            "/webhook register), the host's clock (NTP), and that no proxy changes or drops the x-service-* headers.",
        ],
        actions: ['test', 'reenable'],
      };
    case 'intake-errors':
      return {
        title: `The bot failed to take deliveries: webhook ${incident.label}`,
        lines: [
          `**${incident.count} in a row** answered with an error by this bot since ${since} (last ${last}: ${incident.detail}).`,
          limitSentence(incident.count),
          "Check the bot's store: free disk space and permissions of the SQLite file, or that PostgreSQL is up and reachable.",
        ],
        actions: ['test', 'reenable'],
      };
    case 'silence':
      return {
        title: `No deliveries: webhook ${incident.label}`,
        lines: [
          `${incident.detail}`,
          'Nothing reaches the bot. Check: the webhook may be switched off by the service (Re-enable); PUBLIC_URL ' +
            'must reach this bot over HTTPS from the internet with a valid certificate; the secret must be current ' +
            '(a ping that arrives with a bad signature says so).',
        ],
        actions: ['reenable', 'test'],
      };
    case 'switched-off':
      return {
        title: `Switched off: webhook ${incident.label}`,
        lines: [
          `The service says this webhook is switched off (${incident.detail}): it sends no deliveries until it is ` +
            'switched on again. It does so after 20 failed deliveries in a row.',
          'Fix what made them fail first (see /status and any other alert), then Re-enable: the bot asks the ' +
            'service to switch it on and sends a test ping.',
        ],
        actions: ['reenable', 'test'],
      };
    case 'channel':
      return {
        title: `Discord refuses the feed channel ${incident.label}`,
        lines: [
          `Since ${since}: ${incident.detail}.`,
          'Its deliveries are held, not lost. Give the bot View Channel, Send Messages and Embed Links there, or ' +
            'choose another channel with /feed set or /feed default: held deliveries then go out.',
        ],
        actions: ['held'],
      };
    case 'held':
      return {
        title: `${incident.count} ${incident.count === 1 ? 'delivery' : 'deliveries'} held`,
        lines: [
          `Since ${since}: ${incident.detail}.`,
          'Held deliveries are kept until someone retries, routes or discards them (Show held, or /feed held).',
        ],
        actions: ['held'],
      };
    case 'release-poll':
      return {
        title: 'Release cards are not updating',
        lines: [
          `**${incident.count} polls in a row** of the developer API failed since ${since} (last ${last}: ${incident.detail}).`,
          'Release cards stand still until a poll succeeds. Check that the service is up and that the developer ' +
            'key still works (/app key), and see /status.',
        ],
        actions: [],
      };
    case 'coverage':
      return {
        title: `Not enough staff on shift: ${incident.count} (${incident.label})`,
        lines: [
          incident.detail,
          'Ask staff to start a shift, or change the minimum with /duty minimum. This alert is edited as shifts start ' +
            'and end, and resolved when enough staff are on shift or the session ends.',
        ],
        actions: [],
      };
    case 'digest':
      return {
        title: `The weekly digest cannot be posted in ${incident.label}`,
        lines: [
          `Discord refused it: ${incident.detail}.`,
          'Give the bot View Channel, Send Messages, Embed Links and Attach Files there, or choose another channel ' +
            'with /digest set. The digest is tried again less and less often (2 minutes after the first try, ' +
            'doubling up to every 6 hours); this alert is resolved once it is posted.',
        ],
        actions: [],
      };
    case 'duty-role':
      return {
        title: 'The on-duty role is no longer given',
        lines: [
          incident.detail,
          'Nobody is given it at the start of a shift, and the members the bot gave it to have lost it. Once the ' +
            'role may be given again (or another is chosen with /duty role), the staff on shift get it back and this ' +
            'alert is resolved: the bot looks again at the next shift change, or within a minute.',
        ],
        actions: [],
      };
  }
}

function limitSentence(count: number): string {
  const left = SERVICE_FAILURE_LIMIT - count;
  return left > 0
    ? `The service switches a webhook off after **${SERVICE_FAILURE_LIMIT} failed deliveries in a row**: ${left} more and it is off.`
    : `The service switches a webhook off after **${SERVICE_FAILURE_LIMIT} failed deliveries in a row**: it is most likely off now (Re-enable once the cause is fixed).`;
}

const LABELS: Record<AlertAction, { label: string; style: ButtonStyle }> = {
  reenable: { label: 'Re-enable', style: ButtonStyle.Primary },
  test: { label: 'Send test', style: ButtonStyle.Secondary },
  held: { label: 'Show held', style: ButtonStyle.Secondary },
};

function buttonRow(actions: readonly AlertAction[], subject: string): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: actions.map((action) => ({
      type: ComponentType.Button,
      style: LABELS[action].style as ButtonStyle.Primary,
      label: LABELS[action].label,
      custom_id: alertButtonId(action, action === 'held' ? '' : subject),
    })),
  };
}

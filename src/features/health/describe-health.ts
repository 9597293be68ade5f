import { relativeTime } from '../../discord/relative-time.js';
import type { AlertSettings } from './alert-settings.js';
import type { RecoveryReport } from './downtime-recovery.js';
import type { Incident } from './incidents.js';

/** One line about an open incident, for /alerts show and /status. */
export function describeIncident(incident: Incident): string {
  const since = relativeTime(incident.openedAt);
  switch (incident.type) {
    case 'refusals':
      return `webhook ${incident.label}: ${incident.count} deliveries refused in a row (${incident.detail}), since ${since}`;
    case 'intake-errors':
      return `webhook ${incident.label}: ${incident.count} deliveries this bot failed to store, since ${since}`;
    case 'silence':
      return `webhook ${incident.label}: no deliveries and no test ping, since ${since}`;
    case 'switched-off':
      return `webhook ${incident.label}: switched off by the service, since ${since}`;
    case 'channel':
      return `${incident.label}: ${incident.detail}, since ${since}`;
    case 'held':
      return `${incident.count} held: ${incident.detail}, since ${since}`;
    case 'release-poll':
      return `release cards: ${incident.count} polls in a row failed (${incident.detail}), since ${since}`;
    case 'coverage':
      return `a running session is short of staff: ${incident.count} on shift (${incident.label}), alerted ${since}`;
    case 'digest':
      return `the weekly digest cannot be posted in ${incident.label} (${incident.detail}), since ${since}`;
    case 'duty-role':
      return `the on-duty role ${incident.label} is not given, since ${since}: ${incident.detail}`;
  }
}

/** The health lines of /status: where alerts go, open incidents, and what the bot did after its last downtime. */
export function describeHealth(
  settings: AlertSettings | undefined,
  open: readonly Incident[],
  recovery: RecoveryReport | undefined,
): string[] {
  const lines = [
    settings
      ? `Health alerts: <#${settings.channelId}>${settings.roleId ? `, pinging <@&${settings.roleId}>` : ''}.`
      : 'Health alerts: off (/alerts set turns them on).',
  ];
  if (open.length > 0)
    lines.push(`Open incidents (${open.length}):`, ...open.map((incident) => `• ${describeIncident(incident)}`));
  if (recovery) {
    lines.push(`After the bot's downtime ${relativeTime(recovery.backAt)}, each webhook was tested:`);
    lines.push(...recovery.lines.map((line) => `• ${line}`));
  }
  return lines;
}

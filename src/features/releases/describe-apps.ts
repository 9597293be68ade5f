import { formatInlineCode, formatName } from '../../embeds/format.js';
import type { AppDetail, AppSummary, AppVersion } from '../../upstream/developer-schemas.js';
import type { Card, Watch } from './app-documents.js';

/** Versions /app show lists, newest first. */
const MAX_VERSIONS_SHOWN = 15;

/** A review state as the service spells it, in code so it reads verbatim. */
export function formatState(state: string | undefined | null): string {
  return state === undefined || state === null ? '(no state given)' : formatInlineCode(state, 100);
}

/** One line of /app list. */
export function describeAppLine(app: AppSummary, watch: Watch | undefined): string {
  const parts = [`**${formatName(app.name)}** (app ${app.id})`];
  if (app.pending) {
    const since = app.pending.since === undefined ? '' : ` since <t:${Math.floor(app.pending.since / 1000)}:R>`;
    parts.push(`waiting for review: ${formatName(app.pending.label, 60)} ${formatState(app.pending.state)}${since}`);
  } else if (app.latest) {
    parts.push(`latest ${formatName(app.latest.label, 60)} ${formatState(app.latest.state)}`);
  }
  if (watch) parts.push(`cards in <#${watch.channelId}>`);
  return `• ${parts.join(' · ')}`;
}

/**
 * /app show: the app, the version waiting for review and how long it has been in its state, then the
 * versions, newest first. A time the service does not give comes from the version's release card, if any.
 */
export function describeApp(
  detail: AppDetail,
  cards: Readonly<Record<string, Card>>,
  watch: Watch | undefined,
): string[] {
  const since = (version: AppVersion) => {
    const at = version.stateSince ?? cards[version.label]?.stateSince;
    return at === undefined ? '' : ` since <t:${Math.floor(at / 1000)}:R>`;
  };
  const lines = [`**${formatName(detail.name)}** (app ${detail.id})`];
  const waiting = detail.versions.filter((version) => version.pending);
  if (waiting.length === 0) lines.push('Waiting for review: nothing.');
  for (const version of waiting) {
    lines.push(
      `Waiting for review: **${formatName(version.label, 60)}** ${formatState(version.state)}${since(version)}`,
    );
  }
  const newestFirst = [...detail.versions].reverse();
  lines.push(`Versions (${detail.versions.length}):`);
  for (const version of newestFirst.slice(0, MAX_VERSIONS_SHOWN)) {
    lines.push(`• ${formatName(version.label, 60)} · ${formatState(version.state)}${since(version)}`);
  }
  if (newestFirst.length > MAX_VERSIONS_SHOWN) lines.push(`… and ${newestFirst.length - MAX_VERSIONS_SHOWN} older.`);
  lines.push(
    watch
      ? `Release cards go to <#${watch.channelId}>${watch.roleId === null ? '' : `, outcomes ping <@&${watch.roleId}>`}.`
      : 'Not watched: /app watch posts a release card per version.',
  );
  return lines;
}

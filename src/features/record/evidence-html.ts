import { createHash } from 'node:crypto';

import { readEvidence, type EvidenceItem } from './evidence-links.js';
import {
  EVIDENCE_MODCALL_SPAN_MS,
  type CaseEvidence,
  type EvidenceCase,
  type EvidenceModcall,
  type EvidenceShift,
} from './store/case-evidence.js';

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2328;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #d0d7de}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #eaeef2;vertical-align:top}
.text,pre{white-space:pre-wrap;overflow-wrap:anywhere}pre{background:#f6f8fa;padding:.75rem}
.meta,.note{color:#59636e}.path{font-family:monospace;color:#59636e}.voided{color:#b35900;font-weight:600}
`;

/**
 * What the file allows itself: nothing but its own style sheet (by its hash). No script, no image, no font, no
 * frame, no request of any kind: opened years later, offline or on a hostile network, it shows what it holds and
 * fetches nothing. Links are the reader's to follow; the browser does not load them.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Where the pack was made, for its heading: the server's name as Discord gave it, and when. */
export interface EvidenceFileContext {
  guildId: string;
  guildName: string | undefined;
  madeAt: number;
}

/** The file's name: `case-<server>-<number>-evidence.html` (the server's id is digits; anything else is dropped). */
export function evidenceFileName(found: Pick<EvidenceCase, 'server' | 'number'>): string {
  const server = found.server.replace(/[^0-9A-Za-z_-]/g, '').slice(0, 32);
  return `case-${server === '' ? 'server' : server}-${found.number}-evidence.html`;
}

/**
 * A case's evidence pack as one self-contained HTML file, kept with an appeal after Discord's messages are gone:
 * everything the pack says, every time in UTC, every evidence item exactly as given. Every value is escaped; an
 * evidence text becomes a link only when it is an http(s) address (a `javascript:` one is shown as text), and the
 * Content-Security-Policy forbids any script and any request.
 */
export function renderEvidenceHtml(evidence: CaseEvidence, context: EvidenceFileContext): string {
  const found = evidence.case;
  const where =
    context.guildName !== undefined ? `${esc(context.guildName)} (${esc(context.guildId)})` : esc(context.guildId);
  const body = [
    `<h1>Evidence pack: case #${found.number}</h1>`,
    `<p class="meta">Game server ${esc(found.server)} · from the community record of the Discord server ${where}, ` +
      `made ${utc(context.madeAt)} · times in UTC · the links below were never opened by the bot, and this file loads nothing</p>`,
    '<h2>The case</h2>',
    caseList(found),
    '<h2>Evidence</h2>',
    evidenceSection(found),
    `<h2>The player's modcalls on game server ${esc(found.server)} in the ${EVIDENCE_MODCALL_SPAN_MS / 60_000} minutes before</h2>`,
    modcallTable(evidence),
    `<h2>On shift at ${utc(found.at)}</h2>`,
    shiftSection(evidence),
    '<h2>Session</h2>',
    sessionSection(evidence),
    '<h2>Earlier cases of the player</h2>',
    earlierSection(evidence),
  ].join('\n');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(CONTENT_SECURITY_POLICY)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Evidence pack: case #${found.number}, game server ${esc(found.server)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function caseList(found: EvidenceCase): string {
  const rows: Array<[string, string]> = [
    ['Type', esc(found.type ?? 'not told')],
    [
      'Player',
      found.targetId !== undefined || found.targetName !== undefined
        ? person(found.targetName, found.targetId, 'Roblox id')
        : 'not told',
    ],
    [
      'Moderator',
      found.moderatorId !== undefined || found.moderatorName !== undefined
        ? person(found.moderatorName, found.moderatorId, 'Discord id')
        : 'not told',
    ],
    ['Made', found.createdAt !== undefined ? utc(found.createdAt) : 'not told yet (only its void reached the record)'],
    [
      'Status',
      found.voidedAt === undefined
        ? 'Active: never voided'
        : `<span class="voided">Voided</span> ${utc(found.voidedAt)}${found.voidedBy !== undefined ? ` by ${esc(found.voidedBy)}` : ''}`,
    ],
    ['Reason', found.reason !== undefined ? `<div class="text">${esc(found.reason)}</div>` : 'not told'],
  ];
  return `<dl>\n${rows.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join('\n')}\n</dl>`;
}

function evidenceSection(found: EvidenceCase): string {
  if (found.evidence === undefined) return '<p>None given.</p>';
  const read = readEvidence(found.evidence);
  const items = read.items.map((item) => `<li>${evidenceItem(item)}</li>`);
  if (read.moreItems) items.push('<li class="note">… and more: the whole evidence is below</li>');
  const list = items.length > 0 ? `<ul>\n${items.join('\n')}\n</ul>` : '<p>No text in it.</p>';
  const cut =
    read.value === undefined
      ? '<p class="note">The record keeps the first 16,000 characters of a case’s evidence: this is all it kept.</p>'
      : '';
  const whole = read.value === undefined ? read.text : JSON.stringify(read.value, null, 2);
  return `${list}\n${cut}<p class="note">As the service gave it:</p>\n<pre>${esc(whole)}</pre>`;
}

function evidenceItem(item: EvidenceItem): string {
  const path = item.path === '' ? '' : `<span class="path">${esc(item.path)}</span> `;
  if (item.href === undefined)
    return `${path}<span class="text">${esc(item.text)}</span> <span class="note">(not a web address: shown, not linked)</span>`;
  return `${path}<a href="${esc(item.href)}" rel="noopener noreferrer nofollow">${esc(item.text)}</a>`;
}

function modcallTable(evidence: CaseEvidence): string {
  if (evidence.case.targetId === undefined) return '<p>The player is not told: their calls cannot be found.</p>';
  if (evidence.modcalls.length === 0) return '<p>None.</p>';
  const rows = evidence.modcalls.map((call) => modcallRow(call, evidence.case));
  const more = evidence.moreModcalls ? '<p class="note">… and more.</p>' : '';
  return table(['Called', 'Calls', 'Claimed', 'Resolved'], rows) + more;
}

function modcallRow(call: EvidenceModcall, found: EvidenceCase): string[] {
  const moderator =
    call.claimedBy !== null && call.claimedBy === found.moderatorId ? ' <span class="note">(the moderator)</span>' : '';
  return [
    utc(call.at),
    String(call.calls),
    call.claimedBy === null
      ? 'not claimed'
      : `by Discord id ${esc(call.claimedBy)}${moderator}${call.claimedAt !== null ? `, ${utc(call.claimedAt)}` : ''}`,
    call.resolvedAt === null
      ? 'not resolved'
      : `${utc(call.resolvedAt)}${call.resolvedBy !== null ? ` by Discord id ${esc(call.resolvedBy)}` : ''}`,
  ];
}

function shiftSection(evidence: CaseEvidence): string {
  const found = evidence.case;
  const own = evidence.onShift.find((shift) => found.moderatorId !== undefined && shift.memberId === found.moderatorId);
  const last = evidence.moderatorLastShift;
  let moderator: string;
  if (found.moderatorId === undefined) moderator = 'The moderator: not told.';
  else if (own)
    moderator = `The moderator was <strong>on shift</strong>, since ${utc(own.startedAt)} (game server ${esc(own.server)}).`;
  else if (last) {
    moderator = `The moderator was <strong>not on shift</strong>; their last shift began ${utc(last.startedAt)}${last.endedAt !== null ? ` and ended ${utc(last.endedAt)}` : ''}.`;
  } else moderator = 'The moderator was <strong>not on shift</strong>; no shift of theirs is in the record.';
  const others = evidence.onShift.filter((shift) => shift !== own);
  const list =
    others.length === 0
      ? '<p>Nobody else was on shift.</p>'
      : table(
          ['Member', 'Game server', 'Since'],
          others.map((shift) => shiftRow(shift)),
        );
  return `<p>${moderator}</p>\n${list}${evidence.moreOnShift ? '<p class="note">… and more.</p>' : ''}`;
}

function shiftRow(shift: EvidenceShift): string[] {
  return [
    person(shift.memberName ?? undefined, shift.memberId ?? undefined, 'Discord id'),
    esc(shift.server),
    utc(shift.startedAt),
  ];
}

function sessionSection(evidence: CaseEvidence): string {
  const { session } = evidence;
  if (!session) return '<p>No session was running on this game server.</p>';
  const staffHere = evidence.onShift.filter((shift) => shift.server === evidence.case.server).length;
  const rows: Array<[string, string]> = [
    ['Name', esc(session.name ?? `Session ${session.sessionId}`)],
    [
      'Begun',
      `${utc(session.startedAt)}${session.startedByName !== null || session.startedById !== null ? ` by ${person(session.startedByName ?? undefined, session.startedById ?? undefined, 'Discord id')}` : ''}`,
    ],
    ['Ended', session.endedAt !== null ? utc(session.endedAt) : 'still running, as far as the record was told'],
    ['Staff on shift on this game server at the case', String(staffHere)],
    ['Most players', session.peakPlayers !== null ? String(session.peakPlayers) : 'not told'],
  ];
  return `<dl>\n${rows.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join('\n')}\n</dl>`;
}

function earlierSection(evidence: CaseEvidence): string {
  if (evidence.earlierCases.length === 0) return '<p>None: the first case of this player in the record.</p>';
  const totals = evidence.earlierByType.map((row) => `${row.count} ${esc(row.type)}`).join(', ');
  const rows = evidence.earlierCases.map((earlier) => [
    `#${earlier.number}`,
    esc(earlier.type ?? 'case'),
    utc(earlier.at),
    earlier.voidedAt !== undefined ? `<span class="voided">voided</span> ${utc(earlier.voidedAt)}` : 'active',
    earlier.reason !== undefined ? `<div class="text">${esc(earlier.reason)}</div>` : '—',
  ]);
  return `<p>Not voided: ${totals === '' ? 'none' : totals}. The latest ${rows.length}:</p>\n${table(['Case', 'Type', 'Made', 'Status', 'Reason'], rows)}`;
}

/** A name and an id as text: "Name (Roblox id 123)". Both escaped. */
function person(name: string | undefined, id: string | undefined, idKind: string): string {
  if (name === undefined) return id !== undefined ? `${idKind} ${esc(id)}` : 'not told';
  return id !== undefined ? `${esc(name)} (${idKind} ${esc(id)})` : esc(name);
}

/** Cells are HTML already (each value escaped where it was made). */
function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const th = head.map((name) => `<th>${name}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** "2025-11-01 14:02:33 UTC": a time any reader reads the same, wherever they are. */
function utc(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15
    ? new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')
    : esc(String(ms));
}

/** Text as HTML text or a quoted attribute's value: nothing in it can open a tag, an attribute or an entity. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

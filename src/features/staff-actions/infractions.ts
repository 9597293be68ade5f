import { UserFacingError } from '../../base/errors.js';
import type { StaffActionContext } from './deps.js';
import { editStaffCard, postStaffCard } from './post-staff-card.js';
import { infractionWord, renderInfractionCard } from './staff-cards.js';
import { fetchTarget, refuseTarget, requireStaffManager } from './staff-manager.js';
import type { Infraction, InfractionType } from './store/staff-actions-store.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A strike given without `expires` stops counting after this many days. */
export const DEFAULT_STRIKE_DAYS = 90;
/** The longest `expires`, in days. */
export const MAX_EXPIRES_DAYS = 3_650;
/** The longest reason, evidence or void reason typed. */
export const MAX_INFRACTION_TEXT = 1_000;

/** /staff infraction as typed: the interaction's id makes it once. */
export interface InfractionRequest {
  guildId: string;
  requestId: string;
  managerId: string;
  memberId: string;
  type: InfractionType;
  reason: string;
  evidence: string | null;
  /** Days until it stops counting; null: a strike's default, nothing for the others. */
  expiresInDays: number | null;
}

/**
 * Gives an infraction: the manager checked against Discord now (the staff-manager role, and a member below them),
 * the infraction written once (a retry of the same interaction finds it), then its card posted in the staff-log
 * channel. Resolves with what to tell the manager.
 * @throws UserFacingError for a refusal, in plain words; nothing is written then
 */
export async function giveInfraction(ctx: StaffActionContext, request: InfractionRequest): Promise<string> {
  const expiresAt = infractionExpiry(request.type, request.expiresInDays, ctx.clock());
  const reason = request.reason.trim();
  if (reason === '') throw new UserFacingError('Give a reason. Nothing was recorded.');
  const settings = await ctx.staffActions.settingsOf(request.guildId);
  const { guild, manager } = await requireStaffManager(ctx.client, request.guildId, request.managerId, settings);
  const target = await fetchTarget(guild, request.memberId);
  const refusal = refuseTarget({ guild, manager, target });
  if (refusal !== null) throw new UserFacingError(`${refusal} Nothing was recorded.`);
  const { infraction, created } = await ctx.staffActions.giveInfraction({
    guildId: request.guildId,
    requestId: request.requestId,
    memberId: request.memberId,
    type: request.type,
    reason,
    evidence: request.evidence?.trim() || null,
    givenBy: request.managerId,
    givenAt: ctx.clock(),
    expiresAt,
  });
  const cardNote = await postInfractionCard(ctx, infraction, settings.logChannelId);
  const what = `${infractionWord(infraction.type)} #${infraction.number} for <@${infraction.memberId}>`;
  const until = infraction.expiresAt === null ? '' : `, until <t:${Math.floor(infraction.expiresAt / 1000)}:f>`;
  return `${created ? 'Recorded' : 'Already recorded'}: ${what}${until}.${cardNote}`;
}

/**
 * Voids an infraction: it stays, struck through, with who voided it and why; its card is edited to say so.
 * @throws UserFacingError when it is not there, already voided, or the member may not void it
 */
export async function voidInfraction(
  ctx: StaffActionContext,
  request: { guildId: string; managerId: string; number: number; reason: string },
): Promise<string> {
  const reason = request.reason.trim();
  if (reason === '') throw new UserFacingError('Give a reason for voiding it. Nothing was changed.');
  const settings = await ctx.staffActions.settingsOf(request.guildId);
  await requireStaffManager(ctx.client, request.guildId, request.managerId, settings);
  const found = await ctx.staffActions.infraction(request.guildId, request.number);
  if (!found) throw new UserFacingError(`There is no infraction #${request.number} in this server.`);
  const voiding = { by: request.managerId, at: ctx.clock(), reason };
  if (!(await ctx.staffActions.voidInfraction(request.guildId, request.number, voiding))) {
    throw new UserFacingError(`Infraction #${request.number} was voided already: it stays as it was.`);
  }
  const voided = { ...found, voided: voiding };
  let cardNote = '';
  if (voided.card) {
    const failed = await editStaffCard(ctx, voided.card, renderInfractionCard(voided));
    if (failed !== null) cardNote = ` Its card could not be edited (${failed}).`;
  }
  return `Infraction #${voided.number} of <@${voided.memberId}> is voided: kept, struck through, in the history.${cardNote}`;
}

/**
 * When an infraction given at `now` stops counting: `expires` days on, a strike's default without it, never for
 * the rest; a termination takes no expiry.
 * @throws UserFacingError for days out of bounds, or a termination given an expiry
 */
export function infractionExpiry(type: InfractionType, days: number | null, now: number): number | null {
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_EXPIRES_DAYS)) {
    throw new UserFacingError(`expires is 1 to ${MAX_EXPIRES_DAYS} days. Nothing was recorded.`);
  }
  if (type === 'termination' && days !== null) {
    throw new UserFacingError('A termination does not expire: leave expires out. Nothing was recorded.');
  }
  if (days !== null) return now + days * DAY_MS;
  return type === 'strike' ? now + DEFAULT_STRIKE_DAYS * DAY_MS : null;
}

/** Posts its card unless posted already (a retried command); what to add to the answer. */
async function postInfractionCard(
  ctx: StaffActionContext,
  infraction: Infraction,
  logChannelId: string | null,
): Promise<string> {
  if (infraction.card)
    return ` Its card: https://discord.com/channels/${infraction.guildId}/${infraction.card.channelId}/${infraction.card.messageId}`;
  if (logChannelId === null)
    return ' No staff-log channel is set, so no card was posted (an admin sets one with /staff setup).';
  const posted = await postStaffCard(
    ctx,
    logChannelId,
    renderInfractionCard(infraction),
    ['infraction', infraction.guildId, String(infraction.number)],
    infraction.givenAt,
  );
  if ('failed' in posted)
    return ` Its card could not be posted in <#${logChannelId}> (${posted.failed}): it is recorded all the same.`;
  await ctx.staffActions.noteInfractionCard(infraction.guildId, infraction.number, posted.card);
  return ` Its card is in <#${logChannelId}>.`;
}

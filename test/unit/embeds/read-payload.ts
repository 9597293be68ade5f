import type { APIEmbed } from 'discord.js';

import type { MessagePayload } from '../../../src/discord/message-payload.js';

/** The one embed of a single-event payload; fails the test when there is not exactly one. */
export function onlyEmbed(payload: MessagePayload): APIEmbed {
  const [embed, ...rest] = payload.embeds;
  if (embed === undefined || rest.length > 0) throw new Error(`expected one embed, got ${payload.embeds.length}`);
  return embed;
}

/** The value of the field called `name` in the payload's embed; fails the test when there is none. */
export function fieldValue(payload: MessagePayload, name: string): string {
  const field = onlyEmbed(payload).fields?.find((candidate) => candidate.name === name);
  if (field === undefined) throw new Error(`no field "${name}"`);
  return field.value;
}

/** The names of the embed's fields, in order. */
export function fieldNames(payload: MessagePayload): string[] {
  return (onlyEmbed(payload).fields ?? []).map((field) => field.name);
}

import { z } from 'zod';

import type { MessagePayload } from '../discord/message-payload.js';
import type { FeedMessageBody } from '../discord/posting/send-failure.js';

/**
 * A post as the lane wrote it down before sending it: the body, and what each of its entries put in it (in the
 * entries' order). A resend sends exactly this, so it carries what the first send carried, whatever the cards
 * would plan by then; and a confirmed resend records the same cards the first send would have.
 */
export interface WrittenPost {
  body: FeedMessageBody;
  parts: Array<{ payload: MessagePayload; settled?: boolean; deferredRoleId?: string }>;
  /** When it was written down: a resend past Discord's nonce window looks for the post first. */
  writtenAt: number;
}

const WrittenPostSchema = z.object({
  body: z.looseObject({ nonce: z.string(), embeds: z.array(z.looseObject({})) }),
  parts: z.array(
    z.object({
      payload: z.looseObject({ embeds: z.array(z.looseObject({})), allowed_mentions: z.looseObject({}) }),
      settled: z.boolean().optional(),
      deferredRoleId: z.string().optional(),
    }),
  ),
  writtenAt: z.number(),
});

export function serializeWrittenPost(post: WrittenPost): string {
  return JSON.stringify(post);
}

/**
 * The post written down under `nonce` for `entryCount` entries, or undefined when none was kept (written down by
 * a version that kept none) or it does not match them.
 */
export function parseWrittenPost(text: string | undefined, nonce: string, entryCount: number): WrittenPost | undefined {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = WrittenPostSchema.safeParse(json);
  if (!parsed.success || parsed.data.body.nonce !== nonce || parsed.data.parts.length !== entryCount) return undefined;
  // This module wrote it from these very types; the schema checked the shape a send relies on.
  return parsed.data as unknown as WrittenPost;
}

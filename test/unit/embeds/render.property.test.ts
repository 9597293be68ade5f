import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { validateDiscordRequest } from '../../../fakes/discord/request-validator.js';
import type { MessagePayload } from '../../../src/discord/message-payload.js';
import {
  embedLength,
  fitMessageToLimits,
  MAX_EMBEDS_PER_MESSAGE,
  MAX_MESSAGE_EMBED_CHARS,
} from '../../../src/embeds/limits.js';
import { renderDelivery } from '../../../src/embeds/render-delivery.js';
import type { RenderContext } from '../../../src/embeds/types.js';
import {
  classifyDelivery,
  EnvelopeSchema,
  EVENT_NAMES,
  ServiceEventSchema,
  type ClassifiedDelivery,
  type EventName,
} from '../../../src/upstream/schemas.js';

const ROLE_ID = '998877665544332211';

/** Pieces that stress markdown, mentions and Unicode: emoji, combining marks, zero-width and lone surrogates. */
const NASTY_PIECES = [
  '*',
  '**',
  '_',
  '__',
  '`',
  '``',
  '```',
  '~~',
  '||',
  '\\',
  '> ',
  '>>> ',
  '# ',
  '-# ',
  '- ',
  '1. ',
  '[link](https://evil.example)',
  '](',
  '@everyone',
  '@here',
  '<@123456789012345678>',
  '<@&123456789012345678>',
  '<#123456789012345678>',
  '<t:1:R>',
  '\n',
  '\r\n',
  ' ',
  '\t',
  '\u0085',
  '\u200b',
  '\ufeff',
  '😀',
  '👩‍👩‍👧‍👦',
  '🇫🇷',
  'e\u0301',
  'Z\u0337\u0321\u0334',
  '\ud83d',
  '\ude00',
  '…',
];

const markdownHeavy = fc.array(fc.constantFrom(...NASTY_PIECES), { maxLength: 400 }).map((pieces) => pieces.join(''));

/** Any text a user might type, and much that they would not: short, long, astral, blank, markdown soup. */
const userText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 3000 }),
  fc.string({ unit: 'binary', maxLength: 500 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 4000, maxLength: 9000 }),
  markdownHeavy,
  fc
    .array(fc.oneof(markdownHeavy, fc.string({ unit: 'grapheme', maxLength: 200 })), { maxLength: 8 })
    .map((parts) => parts.join('')),
);

const snowflake = fc.bigInt(10n ** 16n, 10n ** 20n - 1n).map(String);
const someId = fc.oneof(snowflake, fc.stringMatching(/^[0-9]{15,22}$/), fc.nat().map(String), userText);
const epochMs = fc.oneof(fc.integer({ min: 1_500_000_000_000, max: 2_000_000_000_000 }), fc.maxSafeInteger());
const count = fc.oneof(fc.nat(), fc.integer());

const robloxUser = fc.record({ robloxId: someId, name: userText });
const discordUser = fc.record({ discordId: someId, name: userText });
const evidence = fc.oneof(
  fc.constant(null),
  fc.webUrl(),
  userText,
  fc.jsonValue(),
  // Links only: shown one a line, as many as fit, then "and N more".
  fc.array(fc.webUrl(), { maxLength: 300 }),
  fc.dictionary(fc.string({ maxLength: 40 }), fc.oneof(fc.webUrl(), fc.array(fc.webUrl(), { maxLength: 20 }))),
);

const shiftBase = { id: count, discordId: someId, name: userText, robloxId: someId, startedAt: epochMs };

/** Random data for each event, with every text field drawn from {@link userText}. */
const eventData: { [N in EventName]: fc.Arbitrary<unknown> } = {
  'case.created': fc.record({
    case: fc.record({
      number: count,
      type: fc.oneof(fc.constantFrom('warn', 'kick', 'ban'), userText),
      status: userText,
      target: robloxUser,
      moderator: discordUser,
      reason: userText,
      evidence,
      inGame: fc.boolean(),
      createdAt: epochMs,
      voidedAt: fc.constant(null),
      voidedBy: fc.constant(null),
    }),
  }),
  'case.voided': fc.record({
    case: fc.record({
      number: count,
      type: userText,
      status: userText,
      target: robloxUser,
      reason: userText,
      voidedAt: epochMs,
      voidedBy: someId,
    }),
  }),
  'session.started': fc.record({
    session: fc.record({
      id: count,
      name: userText,
      message: userText,
      startedBy: discordUser,
      startedAt: epochMs,
      endedAt: fc.constant(null),
      endedBy: fc.constant(null),
      peakPlayers: count,
    }),
  }),
  'session.ended': fc.record({
    session: fc.record(
      { id: count, name: userText, endedAt: epochMs, startedAt: epochMs, message: userText, startedBy: discordUser },
      { requiredKeys: ['id', 'name', 'endedAt'] },
    ),
    stats: fc.record({ joins: count, cases: count }),
  }),
  modcall: fc.record({ caller: robloxUser, at: epochMs }),
  'shift.started': fc.record({
    shift: fc.record({ ...shiftBase, endedAt: fc.constant(null), seconds: fc.constant(null) }),
  }),
  'shift.ended': fc.record({ shift: fc.record({ ...shiftBase, endedAt: epochMs, seconds: fc.nat() }) }),
};

const envelopeFields = { id: userText.filter((id) => id.length > 0), server: userText, at: epochMs };

const knownEvent: fc.Arbitrary<ClassifiedDelivery> = fc
  .constantFrom(...EVENT_NAMES)
  .chain((event) => fc.record({ ...envelopeFields, event: fc.constant(event), data: eventData[event] }))
  .map((raw) => ({ kind: 'event', event: ServiceEventSchema.parse(raw) }));

/** Unknown event names, and known names with data of any shape (mostly a mismatch). */
const otherDelivery: fc.Arbitrary<ClassifiedDelivery> = fc
  .record(
    {
      id: userText.filter((id) => id.length > 0),
      event: fc.oneof(
        userText.filter((name) => name.length > 0),
        fc.constantFrom(...EVENT_NAMES),
      ),
      server: fc.oneof(userText, fc.jsonValue()),
      at: fc.oneof(epochMs, fc.jsonValue(), fc.double()),
      data: fc.oneof(fc.jsonValue(), fc.array(userText, { maxLength: 20 }), fc.dictionary(userText, userText)),
    },
    { requiredKeys: ['id', 'event'] },
  )
  .map((raw) => classifyDelivery(EnvelopeSchema.parse(raw)));

const delivery = fc.oneof(knownEvent, otherDelivery);

const context: fc.Arbitrary<RenderContext> = fc.oneof(
  fc.constant({}),
  fc.constant({ mentionRoleId: ROLE_ID }),
  someId.map((mentionRoleId) => ({ mentionRoleId })),
);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every string anywhere in `value`. */
function collectStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(collectStrings);
}

/** Everything Discord would check, plus the rules this bot sets itself on mentions. */
function expectSendable(payload: MessagePayload, ctx: RenderContext): void {
  // Through JSON, as discord.js sends it.
  const body: unknown = JSON.parse(JSON.stringify(payload));
  expect(validateDiscordRequest('POST', '/api/v10/channels/123456789012345678/messages', body)).toEqual([]);
  expect(payload.embeds.length).toBeGreaterThan(0);
  expect(payload.embeds.length).toBeLessThanOrEqual(MAX_EMBEDS_PER_MESSAGE);
  expect(payload.embeds.reduce((sum, embed) => sum + embedLength(embed), 0)).toBeLessThanOrEqual(
    MAX_MESSAGE_EMBED_CHARS,
  );
  expect(collectStrings(payload).filter((text) => LONE_SURROGATE.test(text))).toEqual([]);

  const role = ctx.mentionRoleId;
  if (role !== undefined && /^[1-9][0-9]{16,19}$/.test(role)) {
    expect(payload.allowed_mentions).toEqual({ parse: [], roles: [role] });
    expect(payload.content).toBe(`<@&${role}>`);
  } else {
    expect(payload.allowed_mentions).toEqual({ parse: [] });
    expect(payload).not.toHaveProperty('content');
  }
}

// Hundreds of renders of long strings plus ajv: well over vitest's default when the suite runs in parallel.
const PROPERTY_TIMEOUT_MS = 120_000;

describe('every rendered delivery is a message Discord accepts', () => {
  it(
    'for any one delivery, known or not, with any text in it',
    () => {
      fc.assert(
        fc.property(delivery, context, (one, ctx) => {
          expectSendable(renderDelivery(one, ctx), ctx);
        }),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'for a batch of up to 10 deliveries merged into one message, as the outbox sends them',
    () => {
      fc.assert(
        fc.property(fc.array(delivery, { minLength: 1, maxLength: MAX_EMBEDS_PER_MESSAGE }), (batch) => {
          const embeds = batch.flatMap((one) => renderDelivery(one, {}).embeds);
          expectSendable(fitMessageToLimits({ embeds, allowed_mentions: { parse: [] } }), {});
        }),
        { numRuns: 60 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

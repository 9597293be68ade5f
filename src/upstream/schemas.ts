import { z } from 'zod';

/**
 * The service's delivery envelope and event payloads, as upstream-api.md §2.5 and §6 list them.
 *
 * Every object is loose: fields the service adds later are kept, never rejected, so a schema change on
 * their side cannot make us refuse deliveries (which would push the service toward switching the webhook off).
 */

/** The seven events the service documents, in the order of upstream-api.md §6. */
export const EVENT_NAMES = [
  'case.created',
  'case.voided',
  'session.started',
  'session.ended',
  'modcall',
  'shift.started',
  'shift.ended',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/**
 * The event name of the service's test ping (POST /webhooks/:id/test). Its shape is undocumented; a ping is
 * verified, recorded for /webhook test and answered, but not posted to the feed: it is not a server event.
 */
export const PING_EVENT = 'ping';

/** Webhooks one server key may have (upstream-api.md §8). */
export const MAX_WEBHOOKS_PER_KEY = 3;

const KNOWN_EVENTS: ReadonlySet<string> = new Set(EVENT_NAMES);

/** True when `name` is one of the seven documented events. */
export function isEventName(name: string): name is EventName {
  return KNOWN_EVENTS.has(name);
}

/** Milliseconds since the Unix epoch. */
const EpochMs = z.number().int();
/** Discord and Roblox ids arrive as digit strings; we do not insist on digits so a format change still parses. */
const Id = z.string();

const RobloxUser = z.looseObject({ robloxId: Id, name: z.string() });
const DiscordUser = z.looseObject({ discordId: Id, name: z.string() });

/** Fields every delivery carries (§2.5). */
const envelopeShape = {
  id: z.string().min(1),
  server: z.string(),
  at: EpochMs,
};

const CaseCreatedData = z.looseObject({
  case: z.looseObject({
    number: z.number().int(),
    type: z.string(),
    status: z.string(),
    target: RobloxUser,
    moderator: DiscordUser,
    reason: z.string(),
    // The service documents only "null or value": any JSON value is kept as it came.
    evidence: z.unknown(),
    inGame: z.boolean(),
    createdAt: EpochMs,
    voidedAt: EpochMs.nullable(),
    voidedBy: z.string().nullable(),
  }),
});

const CaseVoidedData = z.looseObject({
  case: z.looseObject({
    number: z.number().int(),
    type: z.string(),
    status: z.string(),
    target: RobloxUser,
    reason: z.string(),
    voidedAt: EpochMs,
    voidedBy: z.string(),
  }),
});

const SessionStartedData = z.looseObject({
  session: z.looseObject({
    id: z.number().int(),
    name: z.string(),
    message: z.string(),
    startedBy: DiscordUser,
    startedAt: EpochMs,
    endedAt: z.null(),
    endedBy: z.null(),
    peakPlayers: z.number().int(),
  }),
});

const SessionEndedData = z.looseObject({
  session: z.looseObject({
    id: z.number().int(),
    name: z.string(),
    endedAt: EpochMs,
  }),
  stats: z.looseObject({
    joins: z.number().int(),
    cases: z.number().int(),
  }),
});

const ModcallData = z.looseObject({
  caller: RobloxUser,
  at: EpochMs,
});

const shiftShape = {
  id: z.number().int(),
  discordId: Id,
  name: z.string(),
  robloxId: Id,
  startedAt: EpochMs,
};

const ShiftStartedData = z.looseObject({
  shift: z.looseObject({ ...shiftShape, endedAt: z.null(), seconds: z.null() }),
});

const ShiftEndedData = z.looseObject({
  shift: z.looseObject({ ...shiftShape, endedAt: EpochMs, seconds: z.number().int().nonnegative() }),
});

function eventSchema<const N extends EventName, D extends z.ZodType>(event: N, data: D) {
  return z.looseObject({ ...envelopeShape, event: z.literal(event), data });
}

/** Every documented event, discriminated on `event`. */
export const ServiceEventSchema = z.discriminatedUnion('event', [
  eventSchema('case.created', CaseCreatedData),
  eventSchema('case.voided', CaseVoidedData),
  eventSchema('session.started', SessionStartedData),
  eventSchema('session.ended', SessionEndedData),
  eventSchema('modcall', ModcallData),
  eventSchema('shift.started', ShiftStartedData),
  eventSchema('shift.ended', ShiftEndedData),
]);

export type ServiceEvent = z.infer<typeof ServiceEventSchema>;
/** The event whose name is `N`: `EventOf<'modcall'>['data']['caller']`. */
export type EventOf<N extends EventName> = Extract<ServiceEvent, { event: N }>;

/**
 * The least a delivery must be for us to keep it: a JSON object naming an event and an id to dedupe on.
 * The ping of POST /webhooks/:id/test has an undocumented shape, so nothing else is required here.
 */
export const EnvelopeSchema = z.looseObject({
  id: z.string().min(1),
  event: z.string().min(1),
  server: z.unknown().optional(),
  at: z.unknown().optional(),
  data: z.unknown().optional(),
});
export type Envelope = z.infer<typeof EnvelopeSchema>;

/**
 * A verified delivery, classified:
 * - `event`: one of the seven, matching its schema;
 * - `other`: an event name we do not know (the test ping, or an event added later);
 * - `mismatch`: a known event name whose payload does not match our schema (kept for a plain rendering).
 */
export type ClassifiedDelivery =
  | { kind: 'event'; event: ServiceEvent }
  | { kind: 'other'; envelope: Envelope }
  | { kind: 'mismatch'; envelope: Envelope; problem: string };

/** Sorts an envelope that passed {@link EnvelopeSchema} into one of the three kinds. */
export function classifyDelivery(envelope: Envelope): ClassifiedDelivery {
  if (!isEventName(envelope.event)) return { kind: 'other', envelope };
  const parsed = ServiceEventSchema.safeParse(envelope);
  if (parsed.success) return { kind: 'event', event: parsed.data };
  return { kind: 'mismatch', envelope, problem: z.prettifyError(parsed.error) };
}

/** The service's error body (§7). */
export const ServiceErrorBodySchema = z.looseObject({
  error: z.looseObject({ code: z.string(), message: z.string() }),
});
export type ServiceErrorBody = z.infer<typeof ServiceErrorBodySchema>;

/** The webhook object returned by POST /webhooks (§2.4, §4.2); only the fields we rely on are required. */
export const CreatedWebhookSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  secret: z.string().min(1),
  url: z.string().optional(),
  events: z.array(z.string()).optional(),
});
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

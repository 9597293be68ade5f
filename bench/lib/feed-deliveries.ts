import type { FakeMessage } from '../../fakes/discord/index.js';
import type { EventName } from '../../src/upstream/schemas.js';
import { SAMPLE_DELIVERIES } from '../../test/fixtures/deliveries.js';
import { signHex } from './delivery.js';

/**
 * The deliveries of the feed benchmarks: realistic events (the test fixtures with a fresh id each), signed the
 * way the service signs them, posted to the bot's intake; and what the fake Discord shows of them afterwards.
 */

/** The webhook secret of the feed benchmarks' hook. */
export const FEED_BENCH_SECRET = 'whsec_feed_bench_0123456789abcdef01234567';

/** One delivery to send: its id and the exact body that is signed and posted. */
export interface FeedDelivery {
  id: string;
  event: EventName;
  body: string;
}

/** `f<tag>-<6 digits>`: unique across the rounds of one run, and of fixed length. */
export function feedDeliveryId(tag: string, n: number): string {
  return `f${tag}-${n.toString().padStart(6, '0')}`;
}

/**
 * The fixture of `event` under a new id; a case gets a number and a reason of its own so no two embeds are alike,
 * a modcall a caller of its own; from game server `server` when given (the fixture's otherwise).
 */
export function makeFeedDelivery(event: EventName, id: string, n: number, server?: string): FeedDelivery {
  const fixture = SAMPLE_DELIVERIES[event];
  const sample = server === undefined ? fixture : { ...fixture, server };
  const delivery =
    sample.event === 'case.created'
      ? {
          ...sample,
          id,
          data: {
            case: {
              ...sample.data.case,
              number: 10_000 + n,
              reason: `Burst event ${n}: ramming other players at spawn`,
            },
          },
        }
      : sample.event === 'modcall'
        ? // A caller of their own: one caller's calls within 10 minutes are one card (edited, not posted again).
          { ...sample, id, data: { ...sample.data, caller: { robloxId: String(10_000 + n), name: `caller${n}` } } }
        : { ...sample, id };
  return { id, event, body: JSON.stringify(delivery) };
}

/** `count` deliveries of `events` in turn (one event name: a burst to one channel). */
export function makeFeedBurst(tag: string, count: number, events: readonly EventName[], first = 0): FeedDelivery[] {
  return Array.from({ length: count }, (_, i) => {
    const n = first + i;
    const event = events[n % events.length];
    if (!event) throw new Error('makeFeedBurst: no event names');
    return makeFeedDelivery(event, feedDeliveryId(tag, n), n);
  });
}

/** Signs (now) and posts one delivery; resolves with the status, after reading the answer. */
export async function postDelivery(webhookUrl: string, secret: string, delivery: FeedDelivery): Promise<number> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(webhookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-event': delivery.event,
      'x-service-timestamp': timestamp,
      'x-service-signature': `sha256=${signHex(secret, timestamp, delivery.body)}`,
    },
    body: delivery.body,
  });
  await response.arrayBuffer();
  return response.status;
}

function expectAccepted(status: number, delivery: FeedDelivery): void {
  if (status < 200 || status >= 300) throw new Error(`the intake answered ${status} to delivery ${delivery.id}`);
}

/** Back to back, one after the other, as the service sends a burst: arrival order is the order to keep. */
export async function postInOrder(
  webhookUrl: string,
  secret: string,
  deliveries: readonly FeedDelivery[],
): Promise<void> {
  for (const delivery of deliveries) expectAccepted(await postDelivery(webhookUrl, secret, delivery), delivery);
}

/** With at most `concurrency` requests in flight (arrival order is then not defined). */
export async function postConcurrently(
  webhookUrl: string,
  secret: string,
  deliveries: readonly FeedDelivery[],
  concurrency: number,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < deliveries.length) {
      const delivery = deliveries[next++] as FeedDelivery;
      expectAccepted(await postDelivery(webhookUrl, secret, delivery), delivery);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, deliveries.length) }, lane));
}

/** The delivery id an embed carries in its footer ("… · Delivery <id>"), or "?" when it carries none. */
function deliveryIdOf(embed: FakeMessage['embeds'][number]): string {
  return /Delivery (\S+)$/.exec(embed.footer?.text ?? '')?.[1] ?? '?';
}

/** The delivery ids of a channel's messages, in the order the fake received them. */
export function postedIds(messages: readonly FakeMessage[]): string[] {
  return messages.flatMap((message) => message.embeds.map(deliveryIdOf));
}

/** Throws unless `posted` is exactly `expected`: every delivery once, in order. */
export function assertPostedInOrder(what: string, expected: readonly string[], posted: readonly string[]): void {
  const mismatch = expected.findIndex((id, i) => posted[i] !== id);
  if (mismatch === -1 && posted.length === expected.length) return;
  const counts = countIds(posted);
  const duplicated = [...counts].filter(([, n]) => n > 1).length;
  const missing = expected.filter((id) => !counts.has(id)).length;
  throw new Error(
    `${what}: expected ${expected.length} deliveries once each in order, got ${posted.length} embeds ` +
      `(${missing} missing, ${duplicated} posted more than once, first difference at #${mismatch === -1 ? expected.length : mismatch}: ` +
      `expected ${expected[mismatch] ?? '(end)'}, got ${posted[mismatch === -1 ? expected.length : mismatch] ?? '(end)'})`,
  );
}

/** Throws unless `posted` holds every id of `expected` exactly once (any order). */
export function assertPostedOnce(what: string, expected: readonly string[], posted: readonly string[]): void {
  const counts = countIds(posted);
  const duplicated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  const missing = expected.filter((id) => !counts.has(id));
  const unexpected =
    posted.length -
    (expected.length - missing.length) -
    duplicated.reduce((sum, id) => sum + (counts.get(id) ?? 1) - 1, 0);
  if (missing.length === 0 && duplicated.length === 0 && unexpected === 0) return;
  throw new Error(
    `${what}: expected ${expected.length} deliveries once each, got ${posted.length} embeds: ${missing.length} missing ` +
      `(e.g. ${missing.slice(0, 3).join(', ') || '-'}), ${duplicated.length} posted more than once (e.g. ${duplicated.slice(0, 3).join(', ') || '-'}), ` +
      `${unexpected} not sent by this run`,
  );
}

function countIds(ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

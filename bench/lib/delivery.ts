import { createHmac } from 'node:crypto';

/**
 * What the benchmarks send: a `case.created` delivery that matches the bot's schema, padded to exactly
 * {@link BODY_BYTES} bytes, with a delivery id of fixed length so every body has the same size.
 */
export const BODY_BYTES = 1024;

/** The webhook secret of the benchmark hook (the load process signs with it, the bot verifies with it). */
export const BENCH_SECRET = 'whsec_bench_0123456789abcdef0123456789abcdef';

export const BENCH_GUILD_ID = '222222222222222222';

const ID_DIGITS = 12;

/** `d<tag>-<12 digits>`: `tag` keeps two load runs against the same bot from sending the same ids. */
export function makeDeliveryId(tag: string, n: number): string {
  return `d${tag}-${n.toString().padStart(ID_DIGITS, '0')}`;
}

/** An 8-character tag, unique enough across the runs of one `npm run bench`. */
export function makeRunTag(): string {
  return Math.floor(Math.random() * 0xffffffff)
    .toString(16)
    .padStart(8, '0');
}

const TEMPLATE_ID = makeDeliveryId('00000000', 0);
const AT = 1_763_726_400_000;

function render(id: string, reason: string): string {
  return JSON.stringify({
    id,
    event: 'case.created',
    server: 'srv_bench',
    at: AT,
    data: {
      case: {
        number: 42,
        type: 'ban',
        status: 'active',
        target: { robloxId: '123456789', name: 'Griefer' },
        moderator: { discordId: '111111111111111111', name: 'Moderator' },
        reason,
        evidence: null,
        inGame: true,
        createdAt: AT,
        voidedAt: null,
        voidedBy: null,
      },
    },
  });
}

const PADDING = 'x'.repeat(BODY_BYTES - Buffer.byteLength(render(TEMPLATE_ID, '')));
const [HEAD, TAIL] = render(TEMPLATE_ID, PADDING).split(TEMPLATE_ID) as [string, string];

/** The 1 KB body of delivery `id` (an id from {@link makeDeliveryId}). */
export function makeDeliveryBody(id: string): string {
  return HEAD + id + TAIL;
}

/** Hex HMAC-SHA256 of `<timestamp>.<body>`: what the service signs (upstream-api.md §4.3), written independently of src/. */
export function signHex(secret: string, timestamp: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The headers the service sends with a delivery, signed now. */
export function deliveryHeaders(secret: string, body: string, nowMs = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    'content-type': 'application/json',
    'x-service-event': 'case.created',
    'x-service-timestamp': timestamp,
    'x-service-signature': `sha256=${signHex(secret, timestamp, body)}`,
  };
}

import { signDelivery } from '../../src/upstream/signature.js';

/** Signs `delivery` with `secret` as the service does and posts it to the bot's intake; resolves with the status. */
export async function postSignedDelivery(
  intakeUrl: string,
  hookId: string,
  secret: string,
  delivery: object,
): Promise<number> {
  const body = JSON.stringify(delivery);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(`${intakeUrl}/webhooks/${hookId}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-timestamp': timestamp,
      'x-service-signature': signDelivery(secret, timestamp, body),
    },
    body,
  });
  return response.status;
}

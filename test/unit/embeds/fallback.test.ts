import { describe, expect, it } from 'vitest';

import { renderDelivery } from '../../../src/embeds/render-delivery.js';
import { classifyDelivery, EnvelopeSchema } from '../../../src/upstream/schemas.js';
import { AT, ROLE_ID, SERVER } from './events.js';
import { fieldNames, fieldValue, onlyEmbed } from './read-payload.js';

function classify(raw: unknown) {
  return classifyDelivery(EnvelopeSchema.parse(raw));
}

describe('the fallback rendering', () => {
  it('shows an unknown event plainly with its data', () => {
    const data = { hello: 'world' };
    const delivery = classify({ id: 'dlv_ping', event: 'webhook.test', server: SERVER, at: AT, data });
    const payload = renderDelivery(delivery, {});
    const embed = onlyEmbed(payload);

    expect(embed.title).toBe('Unknown event · webhook.test');
    expect(embed.color).toBe(0x99aab5);
    expect(embed.description).toContain('does not know this event');
    expect(embed.description).toContain('```json\n{\n  "hello": "world"\n}\n```');
    expect(fieldNames(payload)).toEqual(['Server']);
    expect(fieldValue(payload, 'Server')).toBe(SERVER);
    expect(embed.footer?.text).toBe(`Server ${SERVER} · Delivery dlv_ping`);
    expect(embed.timestamp).toBe(new Date(AT).toISOString());
    expect(payload.allowed_mentions).toEqual({ parse: [] });
  });

  it('shows a known event whose data did not match, with the problem', () => {
    const delivery = classify({ id: 'dlv_bad', event: 'modcall', server: SERVER, at: AT, data: { caller: 'nobody' } });
    expect(delivery.kind).toBe('mismatch');
    const payload = renderDelivery(delivery, { mentionRoleId: ROLE_ID });
    const embed = onlyEmbed(payload);

    expect(embed.title).toBe('Unexpected data · modcall');
    expect(embed.description).toContain('did not carry the data this bot expects');
    expect(embed.description).toContain('"caller": "nobody"');
    expect(fieldValue(payload, 'Problem')).toMatch(/^```\n[\s\S]*caller[\s\S]*\n```$/);
    // The route's role is still pinged: a broken modcall is still a modcall.
    expect(payload.content).toBe(`<@&${ROLE_ID}>`);
    expect(payload.allowed_mentions).toEqual({ parse: [], roles: [ROLE_ID] });
  });

  it('copes with an envelope that has no server, time or data', () => {
    const payload = renderDelivery(classify({ id: 'dlv_bare', event: 'ping' }), {});
    const embed = onlyEmbed(payload);
    expect(embed.footer?.text).toBe('Server unknown · Delivery dlv_bare');
    expect(embed).not.toHaveProperty('timestamp');
    expect(embed.description).toContain('```json\n(no value)\n```');
  });

  it('takes the time only when it is an integer, and shows a non-string server as JSON', () => {
    const payload = renderDelivery(classify({ id: 'd', event: 'ping', server: 42, at: '1710018845000' }), {});
    expect(onlyEmbed(payload)).not.toHaveProperty('timestamp');
    expect(fieldValue(payload, 'Server')).toBe('42');
  });

  it('cuts big data inside the code block, keeping the closing fence', () => {
    const data = { log: Array.from({ length: 500 }, (_, index) => `line ${index} \`\`\` fence`) };
    const delivery = classify({ id: 'big', event: 'audit.dump', server: SERVER, at: AT, data });
    const embed = onlyEmbed(renderDelivery(delivery, {}));
    const description = embed.description ?? '';
    expect(description.endsWith('…\n```')).toBe(true);
    // The data's own fences are broken up, so the only real fences are ours.
    expect(description.match(/```/g)).toHaveLength(2);
  });
});

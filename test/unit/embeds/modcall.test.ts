import { describe, expect, it } from 'vitest';

import { renderModcall } from '../../../src/embeds/modcall.js';
import { AT, AT_SECONDS, makeEvent, ROLE_ID, SERVER } from './events.js';
import { fieldValue, onlyEmbed } from './read-payload.js';

describe('renderModcall', () => {
  it('pings the configured role, and only it', () => {
    const payload = renderModcall(makeEvent('modcall'), { mentionRoleId: ROLE_ID });
    const embed = onlyEmbed(payload);

    expect(payload.content).toBe(`<@&${ROLE_ID}>`);
    expect(payload.allowed_mentions).toEqual({ parse: [], roles: [ROLE_ID] });
    expect(embed.title).toBe('Modcall');
    expect(embed.color).toBe(0xeb459e);
    expect(fieldValue(payload, 'Caller')).toBe('[builderman\\_fan](https://www.roblox.com/users/77120394/profile)');
    expect(fieldValue(payload, 'Called')).toBe(`<t:${AT_SECONDS}:f> (<t:${AT_SECONDS}:R>)`);
    expect(embed.footer?.text).toBe(`Server ${SERVER} · Delivery dlv_modcall_01`);
    expect(embed.timestamp).toBe(new Date(AT).toISOString());
  });

  it('has no content and pings nobody without a role', () => {
    const payload = renderModcall(makeEvent('modcall'), {});
    expect(payload).not.toHaveProperty('content');
    expect(payload.allowed_mentions).toEqual({ parse: [] });
  });

  it.each(['everyone', '01234567890123456', '1234567890123456'])(
    'ignores role id %s, which is no snowflake, rather than send one Discord would refuse',
    (mentionRoleId) => {
      const payload = renderModcall(makeEvent('modcall'), { mentionRoleId });
      expect(payload).not.toHaveProperty('content');
      expect(payload.allowed_mentions).toEqual({ parse: [] });
    },
  );
});

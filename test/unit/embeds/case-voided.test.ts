import { describe, expect, it } from 'vitest';

import { renderCaseVoided } from '../../../src/embeds/case-voided.js';
import { AT, AT_SECONDS, dataOf, makeEvent, SERVER, STAFF_ID } from './events.js';
import { fieldNames, fieldValue, onlyEmbed } from './read-payload.js';

describe('renderCaseVoided', () => {
  it('shows which case was voided, by whom and when, muted', () => {
    const payload = renderCaseVoided(makeEvent('case.voided'), {});
    const embed = onlyEmbed(payload);

    expect(embed.title).toBe('Case #1287 · Warn · Voided');
    expect(embed.color).toBe(0x4f545c);
    expect(fieldNames(payload)).toEqual(['Target', 'Voided by', 'Voided', 'Original reason']);
    expect(fieldValue(payload, 'Target')).toContain('(https://www.roblox.com/users/1843920571/profile)');
    expect(fieldValue(payload, 'Voided by')).toBe(`<@${STAFF_ID}>`);
    expect(fieldValue(payload, 'Voided')).toBe(`<t:${AT_SECONDS}:f> (<t:${AT_SECONDS}:R>)`);
    expect(fieldValue(payload, 'Original reason')).toBe('RDM in the spawn zone after a verbal warning');
    expect(embed.footer?.text).toBe(`Server ${SERVER} · Delivery dlv_case_voided_01`);
    expect(embed.timestamp).toBe(new Date(AT).toISOString());
    expect(payload.allowed_mentions).toEqual({ parse: [] });
  });

  it('shows a voidedBy that is not a snowflake as escaped text, not a mention', () => {
    const data = dataOf('case.voided');
    data.case.voidedBy = 'api_key_*prod*';
    const payload = renderCaseVoided(makeEvent('case.voided', data), {});
    expect(fieldValue(payload, 'Voided by')).toBe('api\\_key\\_\\*prod\\*');
  });

  it('does not mention a 16-digit id (too short to be a snowflake)', () => {
    const data = dataOf('case.voided');
    data.case.voidedBy = '1234567890123456';
    expect(fieldValue(renderCaseVoided(makeEvent('case.voided', data), {}), 'Voided by')).toBe('1234567890123456');
  });
});

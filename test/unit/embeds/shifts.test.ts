import { describe, expect, it } from 'vitest';

import { renderShiftEnded } from '../../../src/embeds/shift-ended.js';
import { renderShiftStarted } from '../../../src/embeds/shift-started.js';
import { AT, AT_SECONDS, dataOf, makeEvent, SERVER, STAFF_ID } from './events.js';
import { fieldNames, fieldValue, onlyEmbed } from './read-payload.js';

const STAFF = `<@${STAFF_ID}> · [Juniper](https://www.roblox.com/users/90817263/profile)`;

describe('renderShiftStarted', () => {
  it('shows who clocked in and when', () => {
    const payload = renderShiftStarted(makeEvent('shift.started'), {});
    const embed = onlyEmbed(payload);

    expect(embed.title).toBe('Shift started');
    expect(embed.color).toBe(0x1abc9c);
    expect(fieldNames(payload)).toEqual(['Staff member', 'Started']);
    expect(fieldValue(payload, 'Staff member')).toBe(STAFF);
    expect(fieldValue(payload, 'Started')).toBe(`<t:${AT_SECONDS}:f> (<t:${AT_SECONDS}:R>)`);
    expect(embed.footer?.text).toBe(`Server ${SERVER} · Delivery dlv_shift_started_01`);
    expect(embed.timestamp).toBe(new Date(AT).toISOString());
  });

  it('shows a staff member whose Discord id is not a snowflake without a mention', () => {
    const data = dataOf('shift.started');
    data.shift.discordId = 'n/a';
    const payload = renderShiftStarted(makeEvent('shift.started', data), {});
    expect(fieldValue(payload, 'Staff member')).toBe(
      '[Juniper](https://www.roblox.com/users/90817263/profile) (Discord ID `` n/a ``)',
    );
  });
});

describe('renderShiftEnded', () => {
  it('shows who clocked out, start, end and the length from seconds', () => {
    const payload = renderShiftEnded(makeEvent('shift.ended'), {});
    const embed = onlyEmbed(payload);
    const startSeconds = AT_SECONDS - 125 * 60;

    expect(embed.title).toBe('Shift ended');
    expect(embed.color).toBe(0x607d8b);
    expect(fieldNames(payload)).toEqual(['Staff member', 'Started', 'Ended', 'Duration']);
    expect(fieldValue(payload, 'Staff member')).toBe(STAFF);
    expect(fieldValue(payload, 'Started')).toBe(`<t:${startSeconds}:f> (<t:${startSeconds}:R>)`);
    expect(fieldValue(payload, 'Ended')).toBe(`<t:${AT_SECONDS}:f> (<t:${AT_SECONDS}:R>)`);
    expect(fieldValue(payload, 'Duration')).toBe('2 h 05 min');
  });

  it('measures a shift over midnight from seconds, not from the clock', () => {
    const data = dataOf('shift.ended');
    const endedAt = Date.UTC(2024, 2, 10, 0, 20);
    Object.assign(data.shift, { startedAt: endedAt - 50 * 60_000, endedAt, seconds: 50 * 60 });
    expect(fieldValue(renderShiftEnded(makeEvent('shift.ended', data), {}), 'Duration')).toBe('50 min');
  });

  it('shows a shift of several days in days, hours and minutes', () => {
    const data = dataOf('shift.ended');
    data.shift.seconds = 2 * 86_400 + 3 * 3600 + 4 * 60 + 59;
    expect(fieldValue(renderShiftEnded(makeEvent('shift.ended', data), {}), 'Duration')).toBe('2 d 3 h 04 min');
  });
});

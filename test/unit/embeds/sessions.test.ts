import { describe, expect, it } from 'vitest';

import { renderSessionEnded } from '../../../src/embeds/session-ended.js';
import { renderSessionStarted } from '../../../src/embeds/session-started.js';
import { AT, AT_SECONDS, dataOf, makeEvent, MODERATOR_ID, SERVER } from './events.js';
import { fieldNames, fieldValue, onlyEmbed } from './read-payload.js';

describe('renderSessionStarted', () => {
  it('shows the session, its message, who started it and when', () => {
    const payload = renderSessionStarted(makeEvent('session.started'), {});
    const embed = onlyEmbed(payload);

    expect(embed.title).toBe('Session started · Saturday Night Patrol');
    expect(embed.description).toBe('Server is up! Join via the group page.');
    expect(embed.color).toBe(0x57f287);
    expect(fieldValue(payload, 'Started by')).toBe(`<@${MODERATOR_ID}> (Maple)`);
    expect(fieldValue(payload, 'Started')).toBe(`<t:${AT_SECONDS}:f> (<t:${AT_SECONDS}:R>)`);
    expect(embed.footer?.text).toBe(`Server ${SERVER} · Delivery dlv_session_started_01`);
    expect(embed.timestamp).toBe('2024-03-09T21:14:05.000Z');
  });

  it('has no description for a blank message, and a one-line escaped name in the title', () => {
    const data = dataOf('session.started');
    data.session.message = '   ';
    data.session.name = 'Night\n\n*Patrol*';
    const embed = onlyEmbed(renderSessionStarted(makeEvent('session.started', data), {}));
    expect(embed).not.toHaveProperty('description');
    expect(embed.title).toBe('Session started · Night \\*Patrol\\*');
  });
});

describe('renderSessionEnded', () => {
  it('shows the end, the stats, and no duration when the start is not in the data', () => {
    const payload = renderSessionEnded(makeEvent('session.ended'), {});
    const embed = onlyEmbed(payload);

    expect(embed.title).toBe('Session ended · Saturday Night Patrol');
    expect(embed.color).toBe(0x5865f2);
    expect(fieldNames(payload)).toEqual(['Ended', 'Joins', 'Cases']);
    expect(fieldValue(payload, 'Ended')).toBe(`<t:${AT_SECONDS}:f> (<t:${AT_SECONDS}:R>)`);
    expect(fieldValue(payload, 'Joins')).toBe('57');
    expect(fieldValue(payload, 'Cases')).toBe('4');
    expect(embed.footer?.text).toBe(`Server ${SERVER} · Delivery dlv_session_ended_01`);
  });

  it('shows start, starter, message and duration when the service sends them', () => {
    const data = dataOf('session.ended');
    const startedAt = AT - (3 * 3600 + 7 * 60 + 59) * 1000;
    Object.assign(data.session, {
      startedAt,
      message: 'Thanks for playing!',
      startedBy: { discordId: MODERATOR_ID, name: 'Maple' },
    });
    const payload = renderSessionEnded(makeEvent('session.ended', data), {});

    expect(onlyEmbed(payload).description).toBe('Thanks for playing!');
    expect(fieldNames(payload)).toEqual(['Started by', 'Started', 'Ended', 'Duration', 'Joins', 'Cases']);
    expect(fieldValue(payload, 'Started')).toBe(`<t:${startedAt / 1000}:f> (<t:${startedAt / 1000}:R>)`);
    expect(fieldValue(payload, 'Duration')).toBe('3 h 07 min');
  });

  it('ignores extras of the wrong shape, and a start after the end', () => {
    const data = dataOf('session.ended');
    Object.assign(data.session, { startedAt: AT + 1000, message: 42, startedBy: 'Maple' });
    const payload = renderSessionEnded(makeEvent('session.ended', data), {});
    expect(fieldNames(payload)).toEqual(['Started', 'Ended', 'Joins', 'Cases']);
    expect(onlyEmbed(payload)).not.toHaveProperty('description');
  });
});

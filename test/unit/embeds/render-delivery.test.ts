import { describe, expect, it } from 'vitest';

import { EVENT_RENDERERS, renderDelivery } from '../../../src/embeds/render-delivery.js';
import type { EventRendererMap } from '../../../src/embeds/types.js';
import { EVENT_NAMES, type ServiceEvent } from '../../../src/upstream/schemas.js';
import { dataOf, makeEvent, ROLE_ID } from './events.js';
import { fieldValue, onlyEmbed } from './read-payload.js';

const MENTION_TEXT = '@everyone @here <@&123456789012345678> <@123456789012345678> <@!123456789012345678>';

describe('renderDelivery', () => {
  it('has a builder for every documented event', () => {
    expect(Object.keys(EVENT_RENDERERS).sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('refuses, at compile time, a builder map that misses an event', () => {
    const withoutModcall: Omit<EventRendererMap, 'modcall'> = EVENT_RENDERERS;
    // @ts-expect-error -- modcall has no builder
    const incomplete: EventRendererMap = withoutModcall;
    expect(incomplete).toBe(EVENT_RENDERERS);
  });

  it.each(EVENT_NAMES)('renders %s with its own builder, fitted', (name) => {
    const event = makeEvent(name) as ServiceEvent;
    const payload = renderDelivery({ kind: 'event', event }, {});
    expect(onlyEmbed(payload).title).not.toMatch(/^Unknown event|^Unexpected data/);
    expect(payload.allowed_mentions).toEqual({ parse: [] });
  });

  it('cuts a huge reason visibly', () => {
    const data = dataOf('case.created');
    data.case.reason = 'x'.repeat(10_000);
    const payload = renderDelivery({ kind: 'event', event: makeEvent('case.created', data) }, {});
    expect(fieldValue(payload, 'Reason')).toHaveLength(1000);
    expect(fieldValue(payload, 'Reason').endsWith('…')).toBe(true);
  });

  it('lets mentions in user text ping nobody', () => {
    const data = dataOf('case.created');
    data.case.reason = MENTION_TEXT;
    data.case.moderator.name = MENTION_TEXT;
    const payload = renderDelivery({ kind: 'event', event: makeEvent('case.created', data) }, {});
    expect(fieldValue(payload, 'Reason')).toContain('@everyone');
    expect(payload).not.toHaveProperty('content');
    expect(payload.allowed_mentions).toEqual({ parse: [] });
  });

  it('lets mentions in user text ping nobody but the configured role, on any event', () => {
    const data = dataOf('session.started');
    data.session.message = MENTION_TEXT;
    const event = makeEvent('session.started', data);
    const payload = renderDelivery({ kind: 'event', event }, { mentionRoleId: ROLE_ID });
    expect(payload.content).toBe(`<@&${ROLE_ID}>`);
    expect(payload.allowed_mentions).toEqual({ parse: [], roles: [ROLE_ID] });
  });
});

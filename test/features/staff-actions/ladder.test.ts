import { describe, expect, it } from 'vitest';

import { describeLadder, MAX_RANKS, parseLadder } from '../../../src/features/staff-actions/ladder.js';

const role = (n: number) => `7000000000000000${String(n).padStart(2, '0')}`;

describe('/staff ranks: the ladder as typed', () => {
  it('takes rank roles, lowest first, mentioned or as ids, whatever separates them', () => {
    expect(parseLadder(`<@&${role(1)}>, ${role(2)}   <@&${role(3)}>`)).toEqual([role(1), role(2), role(3)]);
    expect(describeLadder([role(1), role(2)])).toBe(`<@&${role(1)}> → <@&${role(2)}>`);
  });

  it('refuses in plain words what is not a role, a role named twice, and a ladder too long', () => {
    expect(() => parseLadder(`<@&${role(1)}> moderators`)).toThrow(
      '"moderators" is not a role: mention each rank role, lowest first.',
    );
    expect(() => parseLadder(`${role(1)} <@&${role(1)}>`)).toThrow('A role is named twice: name each rank once.');
    const many = Array.from({ length: MAX_RANKS + 1 }, (_, n) => role(n)).join(' ');
    expect(() => parseLadder(many)).toThrow(`A ladder has at most ${MAX_RANKS} ranks.`);
  });
});

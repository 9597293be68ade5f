import type { ButtonInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';

import { bindInteractions, type ButtonHandler, type Command } from '../../../src/discord/command.js';
import { routeInteractions } from '../../../src/discord/interaction-routes.js';

const button = (id: string, command = 'feed'): ButtonHandler<unknown> => ({
  id,
  command,
  run: () => Promise.resolve(),
});
const command = (name: string): Command<unknown> => ({
  data: { name, toJSON: () => ({ name, description: name }) },
  execute: () => Promise.resolve(),
});

describe('routeInteractions', () => {
  it("routes a custom id to the handler its first two parts name, with the rest as the handler's args", () => {
    const routes = routeInteractions(bindInteractions({ buttons: [button('cards:claim'), button('health:held')] }, {}));
    expect(routes.button('cards:claim')?.handler.id).toBe('cards:claim');
    expect(routes.button('cards:claim')?.args).toBe('');
    expect(routes.button('health:held:retry:42:1')).toMatchObject({
      handler: { id: 'health:held' },
      args: 'retry:42:1',
    });
    expect(routes.button('health:heldx:retry')).toBeUndefined();
    expect(routes.button('health')).toBeUndefined();
    expect(routes.dialog('cards:claim')).toBeUndefined();
  });

  it('runs the handler with its deps and the args', async () => {
    const seen: unknown[] = [];
    const handler: ButtonHandler<{ name: string }> = {
      id: 'record:case-page',
      command: 'case',
      run: (_interaction, deps, args) => {
        seen.push(deps.name, args);
        return Promise.resolve();
      },
    };
    const routes = routeInteractions(bindInteractions({ buttons: [handler] }, { name: 'deps' }));
    const routed = routes.button('record:case-page:2391045817:2');
    await routed?.handler.run({} as ButtonInteraction, routed.args);
    expect(seen).toEqual(['deps', '2391045817:2']);
  });

  it("reads an earlier version's id through the legacy table, by whole parts only", () => {
    const routes = routeInteractions(
      bindInteractions({ buttons: [button('health:held'), button('cards:claim')] }, {}),
      [
        { from: 'feed:held', to: 'health:held' },
        { from: 'feed:modcall:claim', to: 'cards:claim' },
      ],
    );
    expect(routes.button('feed:held:page:1:2')).toMatchObject({ handler: { id: 'health:held' }, args: 'page:1:2' });
    expect(routes.button('feed:modcall:claim')).toMatchObject({ handler: { id: 'cards:claim' }, args: '' });
    expect(routes.button('feed:heldx:page:1:2')).toBeUndefined();
    expect(routes.button('feed:modcall:claimed')).toBeUndefined();
  });

  it('refuses, at start, two commands of one name, two handlers of one id and an id not <feature>:<name>', () => {
    expect(() => routeInteractions(bindInteractions({ commands: [command('feed'), command('feed')] }, {}))).toThrow(
      'the command feed',
    );
    expect(() =>
      routeInteractions(bindInteractions({ buttons: [button('cards:claim'), button('cards:claim')] }, {})),
    ).toThrow('the handler cards:claim');
    expect(() => routeInteractions(bindInteractions({ buttons: [button('cards:claim:now')] }, {}))).toThrow(
      'not <feature>:<name>',
    );
    expect(() => routeInteractions(bindInteractions({ buttons: [button('Cards:claim')] }, {}))).toThrow(
      'not <feature>:<name>',
    );
  });

  it("refuses a legacy id that begins with a live feature's prefix: it would take that feature's clicks", () => {
    expect(() =>
      routeInteractions(bindInteractions({ buttons: [button('cards:claim')] }, {}), [
        { from: 'cards:old', to: 'cards:claim' },
      ]),
    ).toThrow('begins with a live prefix');
  });
});

import { describe, expect, it } from 'vitest';

import { SHARED_COMMANDS } from '../../../src/commands/index.js';
import { LEGACY_CUSTOM_IDS } from '../../../src/commands/legacy-custom-ids.js';
import { bindInteractions, joinInteractions, type Interactions } from '../../../src/discord/command.js';
import { routeInteractions, type InteractionRoutes, type RoutedId } from '../../../src/discord/interaction-routes.js';
import { alertButtonId } from '../../../src/features/health/render-alert.js';
import { FEATURE_INTERACTIONS } from '../../../src/features/index.js';

/** The bot's routes as the dispatcher builds them; nothing is run, so no handler is given its deps. */
function botRoutes(): InteractionRoutes {
  const features: ReadonlyArray<Interactions<never>> = Object.values(FEATURE_INTERACTIONS);
  const all = [...features, { commands: SHARED_COMMANDS }];
  return routeInteractions(joinInteractions(all.map((each) => bindInteractions(each, {} as never))), LEGACY_CUSTOM_IDS);
}

/** Where a routed id went: its handler, the command the audit log names, what the handler reads, read-only or not. */
function whereTo(routed: RoutedId<unknown> | undefined) {
  return (
    routed && {
      handler: routed.handler.id,
      command: routed.handler.command,
      args: routed.args,
      readOnly: routed.handler.readOnly?.(routed.args) ?? false,
    }
  );
}

const HOOK = 'b7d0c3a2e9f14c5d8a6b1e2f3c4d5e6f';
const DRAFT = '3f2a9c1e-8b7d-4e6f-a5b4-c3d2e1f0a9b8';

describe('custom ids already on posted messages (before issue 43)', () => {
  // Each id is written out as the code before issue 43 put it on a message (src/features/cards/modcall-message.ts,
  // health/held-entries.ts, health/render-alert.ts, record/case-lookup.ts, commands/app/shared.ts, commands/store.ts,
  // commands/setup.ts): a rename on either side cannot change both.
  const routes = botRoutes();

  it("a modcall card's Claim and Resolve reach the cards feature, and the audit log still names /feed", () => {
    expect(whereTo(routes.button('feed:modcall:claim'))).toEqual({
      handler: 'cards:claim',
      command: 'feed',
      args: '',
      readOnly: false,
    });
    expect(whereTo(routes.button('feed:modcall:resolve'))).toEqual({
      handler: 'cards:resolve',
      command: 'feed',
      args: '',
      readOnly: false,
    });
  });

  it("the held list's buttons reach feed health with their action, entry and page; paging and Cancel only read", () => {
    expect(whereTo(routes.button('feed:held:retry:42:1'))).toEqual({
      handler: 'health:held',
      command: 'feed',
      args: 'retry:42:1',
      readOnly: false,
    });
    expect(whereTo(routes.button('feed:held:route:42:3'))).toEqual({
      handler: 'health:held',
      command: 'feed',
      args: 'route:42:3',
      readOnly: false,
    });
    expect(whereTo(routes.button('feed:held:confirm:42:1'))).toEqual({
      handler: 'health:held',
      command: 'feed',
      args: 'confirm:42:1',
      readOnly: false,
    });
    expect(whereTo(routes.button('feed:held:discard:42:1'))).toEqual({
      handler: 'health:held',
      command: 'feed',
      args: 'discard:42:1',
      readOnly: true,
    });
    expect(whereTo(routes.button('feed:held:cancel:42:1'))).toEqual({
      handler: 'health:held',
      command: 'feed',
      args: 'cancel:42:1',
      readOnly: true,
    });
    expect(whereTo(routes.button('feed:held:page:1:2'))).toEqual({
      handler: 'health:held',
      command: 'feed',
      args: 'page:1:2',
      readOnly: true,
    });
  });

  it("an alert's Re-enable, Send test and Show held reach feed health with the alert's hook", () => {
    expect(whereTo(routes.button(`alerts:reenable:${HOOK}`))).toEqual({
      handler: 'health:alert',
      command: 'alerts',
      args: `reenable:${HOOK}`,
      readOnly: false,
    });
    expect(whereTo(routes.button(`alerts:test:${HOOK}`))).toEqual({
      handler: 'health:alert',
      command: 'alerts',
      args: `test:${HOOK}`,
      readOnly: false,
    });
    expect(whereTo(routes.button('alerts:held:'))).toEqual({
      handler: 'health:alert',
      command: 'alerts',
      args: 'held:',
      readOnly: true,
    });
    // What the handler reads is what a new alert's button carries after its handler's id.
    expect(routes.button(alertButtonId('test', HOOK))?.args).toBe(`test:${HOOK}`);
  });

  it("/app's buttons and dialogs reach the releases feature with their draft", () => {
    for (const action of ['send', 'cancel', 'fill', 'withdraw', 'keep']) {
      expect(whereTo(routes.button(`app:${action}:${DRAFT}`)), action).toEqual({
        handler: `releases:${action}`,
        command: 'app',
        args: DRAFT,
        readOnly: false,
      });
    }
    expect(whereTo(routes.dialog('app:key'))).toEqual({
      handler: 'releases:key',
      command: 'app',
      args: '',
      readOnly: false,
    });
    expect(whereTo(routes.dialog(`app:new:${DRAFT}`))).toEqual({
      handler: 'releases:new',
      command: 'app',
      args: DRAFT,
      readOnly: false,
    });
    expect(whereTo(routes.dialog(`app:fields:${DRAFT}`))).toEqual({
      handler: 'releases:fields',
      command: 'app',
      args: DRAFT,
      readOnly: false,
    });
  });

  it("/store's and /case lookup's pages reach their features with the page and the search (colons and all)", () => {
    expect(whereTo(routes.button('store:next:1:rp: tools'))).toEqual({
      handler: 'releases:catalog',
      command: 'store',
      args: 'next:1:rp: tools',
      readOnly: true,
    });
    expect(whereTo(routes.button('store:prev:0:'))).toEqual({
      handler: 'releases:catalog',
      command: 'store',
      args: 'prev:0:',
      readOnly: true,
    });
    expect(whereTo(routes.button('case:page:2391045817:2'))).toEqual({
      handler: 'record:case-page',
      command: 'case',
      args: '2391045817:2',
      readOnly: true,
    });
  });

  it("/setup's server key dialog reaches the webhooks feature, and the audit log still names /setup", () => {
    expect(whereTo(routes.dialog('setup:server-key'))).toEqual({
      handler: 'webhooks:server-key',
      command: 'setup',
      args: '',
      readOnly: false,
    });
  });

  it('a button is never taken for a dialog, nor an unknown id for anything', () => {
    expect(routes.dialog('feed:modcall:claim')).toBeUndefined();
    expect(routes.button('setup:server-key')).toBeUndefined();
    expect(routes.button('feed:modcall:escalate')).toBeUndefined();
    expect(routes.button('feed')).toBeUndefined();
    expect(routes.button('nobody:knows:this')).toBeUndefined();
  });
});

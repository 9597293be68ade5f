import type { EventName } from '../src/upstream/schemas.js';

/** The demo's Discord server: a game community's staff channels. */
export const DEMO_GUILD = {
  name: 'Liberty County RP',
  channels: ['general', 'mod-log', 'modcalls', 'sessions', 'shifts'],
  /** Pinged with every modcall. */
  moderatorRole: { name: 'Moderators', colour: 0xe67e22 },
} as const;

export type DemoChannel = (typeof DEMO_GUILD.channels)[number];

/** Where the admin sends events with /feed default (everything else: the cases) and /feed set. */
export const DEMO_DEFAULT_CHANNEL: DemoChannel = 'mod-log';
export const DEMO_ROUTES: ReadonlyArray<readonly [EventName, DemoChannel]> = [
  ['modcall', 'modcalls'],
  ['session.started', 'sessions'],
  ['session.ended', 'sessions'],
  ['shift.started', 'shifts'],
  ['shift.ended', 'shifts'],
];

/** Every channel the feed posts to: the default and the routed ones. */
export const DEMO_FEED_CHANNELS: readonly DemoChannel[] = [
  DEMO_DEFAULT_CHANNEL,
  ...new Set(DEMO_ROUTES.map(([, channel]) => channel)),
];

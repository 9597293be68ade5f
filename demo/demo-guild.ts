import type { EventName } from '../src/upstream/schemas.js';

/** The demo's Discord server: a game community's staff channels. */
export const DEMO_GUILD = {
  name: 'Liberty County RP',
  channels: [
    'general',
    'mod-log',
    'modcalls',
    'sessions',
    'shifts',
    'releases',
    'staff-room',
    'staff-log',
    'oversight',
  ],
  /** Pinged with every modcall. */
  moderatorRole: { name: 'Moderators', colour: 0xe67e22 },
  /** Pinged when a version of the studio's app leaves review. */
  developerRole: { name: 'Developers', colour: 0x57f287 },
} as const;

/** Where the release cards of the studio's app go (/app watch). */
export const DEMO_RELEASE_CHANNEL: DemoChannel = 'releases';
/** The studio's app in the fake app store, with the versions it starts with. */
export const DEMO_APP = {
  account: 'Liberty County Studio',
  name: 'Patrol Planner',
  versions: [
    { version: '1.0', status: 'approved' },
    { version: '1.1', status: 'approved' },
  ],
  submission: {
    tagline: 'Shift plans for roleplay patrols',
    description: 'Plans patrol shifts for a roleplay server: who is on duty, where, and who covers the gaps.',
    category: 'tools',
    repoUrl: 'https://github.com/liberty-county/patrol-planner',
    ageRating: 'everyone',
    data: ['none'],
  },
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

/**
 * Names, reasons and messages for generated event streams: what a Roblox roleplay community's feed really
 * shows, including underscores and symbols that Discord markdown would otherwise eat.
 */

export const STAFF_NAMES = ['Kestrel', 'mod_jules', 'Ava R.', 'Dispatcher Finn', 'Sgt. Ortega', 'nova*'] as const;

export const PLAYER_NAMES = [
  'xX_Sniper_Xx',
  'BloxyCop2011',
  'tiny_turtle77',
  'NightRider_RP',
  'Builderman_Jr',
  'CaptainChaos',
  'pizzaguy4life',
  'RoadHog_99',
  'lil_mayhem',
] as const;

export const SESSION_NAMES = [
  'Friday Night Patrol',
  'Weekend Roleplay Session',
  'Late Shift RP',
  'Sunday Cruise',
] as const;

export const SESSION_MESSAGES = [
  'Server is up! Join code in #session-info. Stay in character and follow the traffic laws.',
  'SSU: priority is open, emergency services needed. Read the rules before joining.',
  'Session starting now. No RDM, no VDM, no fail RP. Have fun!',
] as const;

export const WARN_REASONS = [
  'Fail RP: drove through the police barricade without stopping',
  'Mic spam in the county radio channel',
  'Running red lights repeatedly after a verbal warning',
  'Parking on the highway median (NLR)',
] as const;

export const KICK_REASONS = [
  'Random deathmatch near the gas station',
  'Cop baiting at spawn after two warnings',
  'Exploiting the car spawn glitch to duplicate vehicles',
] as const;

export const BAN_REASONS = [
  'Mass RDM and harassing players in chat',
  'Using an exploit menu to teleport vehicles',
  'Repeated slurs in chat: zero tolerance',
] as const;

export const VOID_NOTES = ['appeal accepted', 'wrong player', 'duplicate case'] as const;

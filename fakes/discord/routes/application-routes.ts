/**
 * Routes about the bot itself: gateway discovery, its user and application, its commands, and reads of the
 * guilds it is in.
 */
import { ApiErrors } from '../api-errors.js';
import type { RouteDeps } from './route-deps.js';
import type { Route } from './router.js';

type CommandBodies = readonly (Readonly<Record<string, unknown>> & { readonly name: string })[];

const GATEWAY_ONLY_GUILD_FIELDS = [
  'channels',
  'members',
  'threads',
  'presences',
  'voice_states',
  'stage_instances',
  'guild_scheduled_events',
  'soundboard_sounds',
  'joined_at',
  'large',
  'unavailable',
  'member_count',
] as const;

/** Gateway, `@me`, application command and guild read routes. */
export function applicationRoutes(deps: RouteDeps): Route[] {
  const requireApplication = (applicationId: string | undefined): void => {
    if (applicationId !== deps.applicationId) throw ApiErrors.missingAccess();
  };
  const requireGuild = (guildId: string | undefined): string => {
    if (guildId === undefined || !deps.guilds.guild(guildId)) throw ApiErrors.missingAccess();
    return guildId;
  };
  const application = () => ({
    id: deps.applicationId,
    name: deps.bot.username,
    icon: null,
    description: 'A fake application',
    summary: '',
    type: null,
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: deps.applicationFlags,
    bot: deps.bot,
    team: null,
    owner: null,
    tags: [],
  });

  return [
    {
      method: 'GET',
      path: '/gateway/bot',
      auth: true,
      handle: () => ({
        status: 200,
        body: {
          url: deps.gatewayUrl(),
          shards: deps.shards,
          // @discordjs/ws caches this answer for `reset_after` ms and throttles identifies by `max_concurrency`.
          session_start_limit: {
            total: 1000,
            remaining: 1000,
            reset_after: 86_400_000,
            max_concurrency: deps.maxConcurrency,
          },
        },
      }),
    },
    { method: 'GET', path: '/gateway', auth: false, handle: () => ({ status: 200, body: { url: deps.gatewayUrl() } }) },
    { method: 'GET', path: '/users/@me', auth: true, handle: () => ({ status: 200, body: deps.bot }) },
    { method: 'GET', path: '/applications/@me', auth: true, handle: () => ({ status: 200, body: application() }) },
    {
      method: 'GET',
      path: '/oauth2/applications/@me',
      auth: true,
      handle: () => ({ status: 200, body: application() }),
    },
    {
      method: 'PUT',
      path: '/applications/:applicationId/commands',
      auth: true,
      handle: ({ params, body }) => {
        requireApplication(params['applicationId']);
        return { status: 200, body: deps.commands.overwrite(undefined, (body ?? []) as CommandBodies) };
      },
    },
    {
      method: 'GET',
      path: '/applications/:applicationId/commands',
      auth: true,
      handle: ({ params }) => {
        requireApplication(params['applicationId']);
        return { status: 200, body: deps.commands.list(undefined) };
      },
    },
    {
      method: 'PUT',
      path: '/applications/:applicationId/guilds/:guildId/commands',
      auth: true,
      handle: ({ params, body }) => {
        requireApplication(params['applicationId']);
        const guildId = requireGuild(params['guildId']);
        return { status: 200, body: deps.commands.overwrite(guildId, (body ?? []) as CommandBodies) };
      },
    },
    {
      method: 'GET',
      path: '/applications/:applicationId/guilds/:guildId/commands',
      auth: true,
      handle: ({ params }) => {
        requireApplication(params['applicationId']);
        return { status: 200, body: deps.commands.list(requireGuild(params['guildId'])) };
      },
    },
    {
      method: 'GET',
      path: '/guilds/:guildId',
      auth: true,
      handle: ({ params }) => {
        const guildId = requireGuild(params['guildId']);
        // `GET /guilds/{id}` is the guild without the gateway-only fields.
        const guild: Record<string, unknown> = { ...deps.guilds.guildCreatePayload(guildId) };
        for (const key of GATEWAY_ONLY_GUILD_FIELDS) delete guild[key];
        return { status: 200, body: guild };
      },
    },
    {
      method: 'GET',
      path: '/guilds/:guildId/channels',
      auth: true,
      handle: ({ params }) => ({
        status: 200,
        body: deps.guilds.guildCreatePayload(requireGuild(params['guildId'])).channels,
      }),
    },
    {
      method: 'GET',
      path: '/guilds/:guildId/roles',
      auth: true,
      handle: ({ params }) => ({
        status: 200,
        body: deps.guilds.guildCreatePayload(requireGuild(params['guildId'])).roles,
      }),
    },
    {
      method: 'GET',
      path: '/guilds/:guildId/members/:userId',
      auth: true,
      handle: ({ params }) => {
        const guildId = requireGuild(params['guildId']);
        const userId = params['userId'] === '@me' ? deps.bot.id : (params['userId'] ?? '');
        const member = deps.guilds.member(guildId, userId);
        if (!member) throw ApiErrors.unknownMember();
        return { status: 200, body: member };
      },
    },
  ];
}

import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  InteractionContextType,
  MessageFlags,
  SlashCommandBuilder,
  type APIEmbed,
} from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import { customIdOf, type ButtonHandler, type Command, type CommandBasics } from '../../../discord/command.js';
import { formatName, formatUserText } from '../../../embeds/format.js';
import { fitMessageToLimits } from '../../../embeds/limits.js';
import type { CatalogApp } from '../../../upstream/developer-schemas.js';
import type { AppGuild } from '../app-documents.js';
import type { ReleasesDeps } from '../feature.js';
import { askService } from './app/shared.js';

/** What /store is given: its feature's dependencies, no more. */
export type CatalogCommandDeps = CommandBasics & ReleasesDeps;

/** Apps per page of /store. */
export const CATALOG_PAGE_SIZE = 10;
/** The slash command's name: the service calls its catalog its app store. */
const CATALOG_COMMAND = 'store';
/** The handler of the catalog's Previous and Next: `releases:catalog:<prev|next>:<page>:<search>`. */
const CATALOG_PAGE_BUTTON = 'releases:catalog';
/** The catalog's one cache entry: it is the same whoever asks. */
const CATALOG_CACHE_KEY = 'catalog';
const MAX_SEARCH = 50;

/**
 * /store [search] [public]: the catalog (the service's app store: every published app), cached for 10 minutes
 * (one GET /store serves every page and every member), paged with buttons. Anyone in the server may use it once a
 * developer key is set; with `public:true` the answer is visible to the channel.
 */
export const catalogCommand: Command<CatalogCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName(CATALOG_COMMAND)
    .setDescription("Browse the service's app store")
    .setContexts(InteractionContextType.Guild)
    .addStringOption((option) =>
      option
        .setName('search')
        .setDescription('Only apps whose name, tagline or category has this')
        .setMaxLength(MAX_SEARCH),
    )
    .addBooleanOption((option) => option.setName('public').setDescription('Show the answer to the whole channel')),

  async execute(interaction, ctx) {
    const guildId = interaction.guildId;
    if (!guildId) throw new UserFacingError('Use this command in a server, not in direct messages.');
    const search = (interaction.options.getString('search') ?? '').trim();
    const visible = interaction.options.getBoolean('public') === true;
    const guild = await ctx.appDocuments.readGuild(guildId);
    if (guild.developerKey === null) {
      throw new UserFacingError(
        'The store is read with the developer key, and none is set: an admin runs /app key first.',
      );
    }
    await interaction.deferReply(visible ? {} : { flags: MessageFlags.Ephemeral });
    const apps = await loadCatalog(ctx, guild);
    await interaction.editReply(renderCatalogPage(apps, search, 0));
  },

  // Reading the catalog changes nothing.
  readOnly: () => true,
};

/** Previous and Next on a page of /store. */
export const catalogPageButton: ButtonHandler<CatalogCommandDeps> = {
  id: CATALOG_PAGE_BUTTON,
  command: CATALOG_COMMAND,

  async run(interaction, ctx, args) {
    const guildId = interaction.guildId;
    if (!guildId) throw new UserFacingError('Use this command in a server, not in direct messages.');
    const { page, search } = readPageArgs(args);
    const apps = await loadCatalog(ctx, await ctx.appDocuments.readGuild(guildId));
    await interaction.update(renderCatalogPage(apps, search, page));
  },

  // Paging through the catalog changes nothing.
  readOnly: () => true,
};

function loadCatalog(ctx: CatalogCommandDeps, guild: AppGuild): Promise<CatalogApp[]> {
  return ctx.developerCache.catalog.get(CATALOG_CACHE_KEY, () =>
    askService(ctx, guild, 'read the store', (caller) => ctx.developer.getStore(caller)),
  );
}

/** One page of the catalog, with Previous and Next (disabled at the ends). */
export function renderCatalogPage(all: readonly CatalogApp[], search: string, requested: number) {
  const needle = search.toLowerCase();
  const apps =
    needle === ''
      ? all
      : all.filter((app) =>
          [app.name, app.tagline ?? '', app.category ?? ''].some((text) => text.toLowerCase().includes(needle)),
        );
  const pages = Math.max(1, Math.ceil(apps.length / CATALOG_PAGE_SIZE));
  const page = Math.min(Math.max(0, requested), pages - 1);
  const shown = apps.slice(page * CATALOG_PAGE_SIZE, (page + 1) * CATALOG_PAGE_SIZE);
  const lines = shown.map((app) => {
    const facts = [app.category, app.version === undefined ? undefined : `v${app.version}`].filter(
      (fact) => fact !== undefined,
    );
    const tagline = app.tagline === undefined ? '' : ` — ${formatUserText(app.tagline, 150)}`;
    return `**${formatName(app.name)}**${facts.length > 0 ? ` · ${facts.map((fact) => formatName(fact, 40)).join(' · ')}` : ''}${tagline}`;
  });
  const embed: APIEmbed = {
    title: search === '' ? 'App store' : `App store · "${formatName(search, MAX_SEARCH)}"`,
    description: lines.length > 0 ? lines.join('\n') : 'No app matches.',
    color: 0x5865f2,
    footer: { text: `Page ${page + 1} of ${pages} · ${apps.length} app${apps.length === 1 ? '' : 's'}` },
  };
  const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(pageId(page - 1, search, 'prev'))
      .setLabel('Previous')
      .setStyle(ButtonStyle.Secondary)
      .setDisabled(page === 0),
    new ButtonBuilder()
      .setCustomId(pageId(page + 1, search, 'next'))
      .setLabel('Next')
      .setStyle(ButtonStyle.Secondary)
      .setDisabled(page >= pages - 1),
  );
  const fitted = fitMessageToLimits({ embeds: [embed], allowed_mentions: { parse: [] } });
  return { content: '', embeds: fitted.embeds, components: [buttons], allowedMentions: { parse: [] } };
}

/** `releases:catalog:<prev|next>:<page>:<search>`: the two buttons must differ even where both are disabled. */
function pageId(page: number, search: string, which: 'prev' | 'next'): string {
  return customIdOf(CATALOG_PAGE_BUTTON, which, Math.max(0, page), search);
}

/** What a page button's id carries after `releases:catalog:` (the search may hold colons). */
function readPageArgs(args: string): { page: number; search: string } {
  const [, page = '0', ...search] = args.split(':');
  return { page: Number.parseInt(page, 10) || 0, search: search.join(':') };
}

import type { CommandBasics, Interactions } from '../../../discord/command.js';
import type { ReleasesDeps } from '../feature.js';
import { appButtons, appCommand, appDialogs } from './app.js';
import { catalogCommand, catalogPageButton } from './catalog.js';

/** The releases feature's slash commands (/app, /store), their buttons and dialogs. */
export const releasesInteractions: Interactions<CommandBasics & ReleasesDeps> = {
  commands: [appCommand, catalogCommand],
  buttons: [...appButtons, catalogPageButton],
  dialogs: appDialogs,
};

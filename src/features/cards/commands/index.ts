import type { Interactions } from '../../../discord/command.js';
import { claimButton, resolveButton, type ModcallButtonDeps } from './modcall-buttons.js';

/** The cards feature's buttons: Claim and Resolve on a modcall card (its /feed options are /feed's, shared). */
export const cardsInteractions: Interactions<ModcallButtonDeps> = { buttons: [claimButton, resolveButton] };

import type { Store } from '../../store/store.js';
import { digestModule } from './store/digest-module.js';
import type { Digests } from './store/digests.js';

/** What other features may use of the digest feature. */
export type { Quota } from './store/digests.js';

/** The guild's quotas (/quota), as other features read them (/staff activity). */
export function quotasOf(store: Pick<Store, 'of'>): Pick<Digests, 'quotasOf'> {
  return store.of(digestModule);
}

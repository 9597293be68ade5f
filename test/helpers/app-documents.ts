import type { Logger } from '../../src/base/logger.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { appDocumentsOn } from '../../src/features/releases/app-documents-on.js';
import type { AppDocuments } from '../../src/features/releases/app-documents.js';
import { openStore } from '../../src/store/open-store.js';

/** The developer-API documents on a store of their own (`memory://` or a file), closed with it. */
export async function openAppDocuments(
  storeUrl: string,
  logger?: Logger,
): Promise<AppDocuments & { close(): Promise<void> }> {
  const store = await openStore(storeUrl, STORE_MODULES);
  return { ...appDocumentsOn(store.documents, logger), close: () => store.close() };
}

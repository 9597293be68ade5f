import type { Logger } from '../../src/base/logger.js';
import { STORE_MODULES } from '../../src/features/index.js';
import type { AppRecords } from '../../src/features/releases/app-records.js';
import { appRecordsOn } from '../../src/features/releases/store-app-records.js';
import { openStore } from '../../src/store/open-store.js';

/** The developer-API records on a store of their own (`memory://` or a file), closed with it. */
export async function openAppRecords(
  storeUrl: string,
  logger?: Logger,
): Promise<AppRecords & { close(): Promise<void> }> {
  const store = await openStore(storeUrl, STORE_MODULES);
  return { ...appRecordsOn(store.documents, logger), close: () => store.close() };
}

import { hooksAndDeliveries } from './0001-hooks-and-deliveries.js';
import { documents } from './0002-documents.js';
import { routingKeys } from './0003-routing-keys.js';
import { writtenMessages } from './0004-written-messages.js';
import { documentTimes } from './0005-document-times.js';
import { feedLeases } from './0006-feed-leases.js';
import { unrecordedMark } from './0007-unrecorded-mark.js';
import { setAside } from './0008-set-aside.js';
import { unusedAcceptFunctions } from './0009-unused-accept-functions.js';
import { gatewayShards } from './0010-gateway-shards.js';
import type { KernelStep } from './migration-step.js';

/** What the store records the kernel's steps under (a feature's are under its module's name). */
export const KERNEL = 'kernel';

/**
 * The kernel's schema, step by step, in order: its tables (hooks, settings, the delivery queue, documents, the
 * items set aside, PostgreSQL's leases and gateway shards). Applied before every module's. A new step goes at the end.
 */
export const KERNEL_STEPS: readonly KernelStep[] = [
  hooksAndDeliveries,
  documents,
  routingKeys,
  writtenMessages,
  documentTimes,
  feedLeases,
  unrecordedMark,
  setAside,
  unusedAcceptFunctions,
  gatewayShards,
];

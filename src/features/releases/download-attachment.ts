import { UserFacingError } from '../../base/errors.js';

/** How long fetching an attachment from Discord may take. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/** A file attached to a command, as Discord described it. */
export interface AttachmentRef {
  name: string;
  url: string;
  /** The size Discord announced. */
  size: number;
}

/** Fetches an attachment's bytes from Discord's CDN; tests pass their own fetch. */
export type AttachmentDownloader = (attachment: AttachmentRef, maxBytes: number) => Promise<Uint8Array>;

/**
 * Downloads an attachment, refusing more than `maxBytes`, and checks that what arrived is what Discord
 * announced: a cut-off download must never be uploaded as a build.
 * @throws UserFacingError when it cannot be fetched, is too large, or arrived with another size
 */
export function createAttachmentDownloader(
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): AttachmentDownloader {
  return async (attachment, maxBytes) => {
    let bytes: Uint8Array;
    try {
      const response = await fetchImpl(attachment.url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      bytes = await readAtMost(response, maxBytes);
    } catch (error) {
      if (error instanceof UserFacingError) throw error;
      throw new UserFacingError(
        `Could not fetch ${attachment.name} from Discord (${error instanceof Error ? error.message : 'unknown error'}): attach it again and retry.`,
      );
    }
    if (bytes.length !== attachment.size) {
      throw new UserFacingError(
        `The file ${attachment.name} arrived with ${bytes.length} bytes where Discord announced ${attachment.size}: nothing was sent. Attach it again and retry.`,
      );
    }
    return bytes;
  };
}

async function readAtMost(response: Response, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  for (;;) {
    const result = await reader.read();
    if (result.done) break;
    const value = result.value as Uint8Array;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      throw new UserFacingError(
        `The file is larger than the service's upload limit of ${maxBytes} bytes: nothing was sent.`,
      );
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

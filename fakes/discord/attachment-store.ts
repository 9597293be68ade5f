/**
 * Files users attach to slash-command options: what the interaction's `resolved.attachments` describes and what
 * Discord's CDN serves at the attachment's `url`.
 */
import type { APIAttachment } from 'discord.js';

/** An attachment to offer through an attachment option; see {@link AttachmentStore.add}. */
export interface AttachmentSpec {
  readonly filename: string;
  readonly bytes: Uint8Array;
  readonly contentType?: string;
  /**
   * The size the interaction reports; default the length of `bytes`. A different value lets a test play a
   * delivery that does not match what Discord announced.
   */
  readonly size?: number;
}

/** An attachment the fake holds: its API object and the bytes its URL serves. */
export interface StoredAttachment {
  readonly api: APIAttachment;
  readonly bytes: Uint8Array;
}

/** The fake's attachments, by id; `baseUrl` is where the fake serves them (its own address). */
export class AttachmentStore {
  readonly #byId = new Map<string, StoredAttachment>();

  constructor(
    private readonly nextId: () => string,
    private readonly baseUrl: () => string,
  ) {}

  /** Stores an attachment and returns its API object (pass its `id` to `commandOption.attachment`). */
  add(spec: AttachmentSpec): APIAttachment {
    const id = this.nextId();
    const url = `${this.baseUrl()}/attachments/${id}/${encodeURIComponent(spec.filename)}`;
    const api: APIAttachment = {
      id,
      filename: spec.filename,
      size: spec.size ?? spec.bytes.length,
      url,
      proxy_url: url,
      ...(spec.contentType === undefined ? {} : { content_type: spec.contentType }),
    };
    this.#byId.set(id, { api, bytes: spec.bytes });
    return api;
  }

  get(id: string): StoredAttachment | undefined {
    return this.#byId.get(id);
  }
}

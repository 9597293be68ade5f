import type { Submission } from '../../upstream/developer-schemas.js';
import type { AttachmentRef } from './download-attachment.js';
import type { AskedField } from './missing-fields.js';

/** Where fields of a submission came from, for the preview: a label and the fields. */
export interface FieldSource {
  label: string;
  fields: string[];
}

/**
 * What a button or dialog of the /app commands acts on, kept between the interaction that shows it and the one
 * that answers it:
 * - `submission`: a checked submission waiting for Submit or Cancel (a new version, or with `appId` null a
 *   new app), with the bytes of its file, already fetched from Discord;
 * - `submission-fields`: /app submit waiting for the fields neither the service's version nor an earlier
 *   submission from here gives (`ask`); `typed` keeps what the dialog got, so a correction starts from it;
 * - `new-app`: /app new waiting for its dialog, with the attachments it was given;
 * - `withdrawal`: the version /app withdraw asks to confirm.
 */
export type AppDraft =
  | {
      kind: 'submission';
      appId: string | null;
      appName: string;
      submission: Submission;
      file: { name: string; bytes: Uint8Array } | null;
    }
  | {
      kind: 'submission-fields';
      appId: string;
      appName: string;
      candidate: Record<string, unknown>;
      sources: FieldSource[];
      ask: AskedField[];
      typed: Record<string, unknown>;
      file: AttachmentRef | null;
    }
  | { kind: 'new-app'; details: AttachmentRef; file: AttachmentRef | null }
  | { kind: 'withdrawal'; appId: string; appName: string; label: string };

import { z } from 'zod';

import {
  PREFILLED_FIELDS,
  SubmissionSchema,
  type AppVersion,
  type DeveloperOptions,
  type Submission,
} from '../../upstream/developer-schemas.js';

/** Stands for the file token while a submission waits for its upload: checks see `files` filled in. */
export const UPLOAD_PLACEHOLDER = 'upload-pending';

/** The fields the /app new dialog asks for; the JSON attachment holds every other field. */
export const DIALOG_FIELDS = ['name', 'tagline', 'description', 'version', 'whatsNew'] as const;

/** What a check found: the submission, or every problem in words (field: what is wrong). */
export type SubmissionCheck = { ok: true; submission: Submission } | { ok: false; problems: string[] };

/**
 * The fields of a new version taken over from the app's latest version: everything the portal's form holds
 * except the version, its change note, its files (a token is used once) and the icon (optional on updates).
 */
export function prefillFromVersion(latest: AppVersion | undefined): Record<string, unknown> {
  return latest ? pickKeptFields(latest.raw) : {};
}

/**
 * The fields of an object (a version, or a submission sent) that a next version takes over: those of
 * {@link PREFILLED_FIELDS} that hold a value.
 */
export function pickKeptFields(source: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of PREFILLED_FIELDS) {
    const value = source[field];
    if (value !== undefined && value !== null) kept[field] = value;
  }
  return kept;
}

/**
 * Checks a submission before anything is sent: the document's own rules (SubmissionSchema: description of 50
 * characters or more, URLs, files or repository) and every enumerated field against GET /options. A list the
 * options do not give is not checked: the service decides then.
 */
export function checkSubmission(candidate: Record<string, unknown>, options: DeveloperOptions): SubmissionCheck {
  const parsed = SubmissionSchema.safeParse(candidate);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'submission'}: ${issue.message}`);
  const oneOf = (field: string, allowed: string[] | undefined) => {
    const value = candidate[field];
    if (allowed === undefined || value === undefined) return;
    const values = Array.isArray(value) ? (value as unknown[]) : [value];
    const unknown = values.filter((item) => typeof item !== 'string' || !allowed.includes(item));
    if (unknown.length > 0) {
      problems.push(`${field}: ${unknown.map(String).join(', ')} is not one of ${allowed.join(', ')}`);
    }
  };
  oneOf('category', options.categories);
  oneOf('data', options.dataKinds);
  oneOf('ageRating', options.ageRatings);
  oneOf('repoAccess', options.repoAccess);
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  return { ok: true, submission: parsed.data };
}

/**
 * The JSON attachment of /app new: an object with the fields the dialog cannot hold (docs/developer-api.md,
 * "Submitting").
 */
const NewAppDetailsSchema = z.record(z.string(), z.unknown());

/**
 * Reads the /app new JSON attachment.
 * @returns the fields, or problems: not JSON, not an object, or fields the dialog asks for (they would be
 *   overwritten without anyone noticing)
 */
export function readNewAppDetails(
  text: string,
): { ok: true; fields: Record<string, unknown> } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'The details file is not valid JSON.' };
  }
  const parsed = NewAppDetailsSchema.safeParse(json);
  if (!parsed.success || Array.isArray(json))
    return { ok: false, problem: 'The details file must hold one JSON object.' };
  const taken = [...DIALOG_FIELDS, 'files'].filter((field) => field in parsed.data);
  if (taken.length > 0) {
    return {
      ok: false,
      problem: `The details file must not hold ${taken.join(', ')}: the dialog asks for those, and files come from the file option.`,
    };
  }
  return { ok: true, fields: parsed.data };
}

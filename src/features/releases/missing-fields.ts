import { MIN_DESCRIPTION_LENGTH, type DeveloperOptions } from '../../upstream/developer-schemas.js';

/** Discord's limits: a dialog holds at most 5 inputs, a select at most 25 choices. */
export const MAX_DIALOG_INPUTS = 5;
const MAX_CHOICES = 25;

/** One field the /app submit dialog asks for, and how. */
export interface AskedField {
  /** The submission field (and the input's custom id). */
  field: string;
  label: string;
  /** `short`/`paragraph`: a text input; `select`: one of `choices`; `multi`: any of `choices`. */
  style: 'short' | 'paragraph' | 'select' | 'multi';
  required: boolean;
  choices?: string[];
  min?: number;
  max?: number;
}

/**
 * The fields a new version still lacks once the service's version and what was last sent from here are used,
 * required ones first, at most {@link MAX_DIALOG_INPUTS}; none when nothing required is missing:
 * - what the submission check needs: tagline, description, category, and a repository address when no file is
 *   attached and none is known (§2.2: `files`, `repoUrl`, or both);
 * - the enumerated fields GET /options lists (age rating, data kinds), offered as choices and left optional: the
 *   service does not say which fields it requires (§4.1 rule 3).
 * The name is never asked: the app as the service shows it always has one.
 */
export function findMissingFields(
  candidate: Record<string, unknown>,
  options: DeveloperOptions,
  hasFile: boolean,
): AskedField[] {
  const lacks = (field: string) => {
    const value = candidate[field];
    return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
  };
  const required: AskedField[] = [];
  if (lacks('tagline'))
    required.push({ field: 'tagline', label: 'Tagline', style: 'short', required: true, min: 1, max: 200 });
  if (lacks('description')) {
    required.push({
      field: 'description',
      label: 'Description',
      style: 'paragraph',
      required: true,
      min: MIN_DESCRIPTION_LENGTH,
      max: 4000,
    });
  }
  if (lacks('category')) {
    // Without a list GET /options can give in a select, the category is typed; the service then decides.
    required.push(
      isSelectable(options.categories)
        ? { field: 'category', label: 'Category', style: 'select', required: true, choices: options.categories }
        : { field: 'category', label: 'Category', style: 'short', required: true, min: 1, max: 100 },
    );
  }
  if (!hasFile && lacks('repoUrl')) {
    required.push({
      field: 'repoUrl',
      label: 'Repository address (or attach a file)',
      style: 'short',
      required: true,
      min: 8,
      max: 300,
    });
  }
  const optional: AskedField[] = [];
  if (lacks('ageRating') && isSelectable(options.ageRatings)) {
    optional.push({
      field: 'ageRating',
      label: 'Age rating',
      style: 'select',
      required: false,
      choices: options.ageRatings,
    });
  }
  if (lacks('data') && isSelectable(options.dataKinds)) {
    optional.push({
      field: 'data',
      label: 'Data the app handles',
      style: 'multi',
      required: false,
      choices: options.dataKinds,
    });
  }
  // Optional fields alone never hold a submission up: they ride along only when a dialog is needed anyway.
  if (required.length === 0) return [];
  return [...required, ...optional].slice(0, MAX_DIALOG_INPUTS);
}

/** Whether the options give a list a select can hold. */
function isSelectable(choices: string[] | undefined): choices is string[] {
  return choices !== undefined && choices.length > 0 && choices.length <= MAX_CHOICES;
}

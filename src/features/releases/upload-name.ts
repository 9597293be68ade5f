import { UserFacingError } from '../../base/errors.js';

/** Archives the service takes (upstream-api.md §4.1), matched on the end of the lower-cased name. */
const ARCHIVE_ENDINGS = ['.zip', '.tar.gz', '.tar'] as const;

/**
 * "Single code files" are accepted too (§4.1) without a list: these are the usual source and config files of
 * the apps the service hosts. Anything else (an installer, an image) would only be refused after its upload.
 */
const CODE_EXTENSIONS: ReadonlySet<string> = new Set([
  'c',
  'cc',
  'cjs',
  'cpp',
  'cs',
  'css',
  'cts',
  'dart',
  'gd',
  'go',
  'h',
  'hpp',
  'htm',
  'html',
  'java',
  'js',
  'json',
  'jsx',
  'kt',
  'lua',
  'luau',
  'mjs',
  'mts',
  'php',
  'py',
  'rb',
  'rs',
  'scss',
  'sh',
  'sql',
  'swift',
  'toml',
  'ts',
  'tsx',
  'xml',
  'yaml',
  'yml',
]);

/**
 * The file's base name: what follows the last `/` or `\`, so a name given with a path (`C:\builds\app.zip`,
 * `../app.zip`) never reaches the service's `name` parameter as one.
 */
export function toBaseName(name: string): string {
  return (name.split(/[\\/]/).at(-1) ?? '').trim();
}

/** Whether a base name is one the service takes: a .zip, .tar.gz or .tar archive, or a single code file. */
export function isUploadKind(baseName: string): boolean {
  const lower = baseName.toLowerCase();
  if (ARCHIVE_ENDINGS.some((ending) => lower.endsWith(ending) && lower.length > ending.length)) return true;
  const dot = lower.lastIndexOf('.');
  return dot > 0 && CODE_EXTENSIONS.has(lower.slice(dot + 1));
}

/**
 * The name an upload goes under: the base name, of a kind the service takes; checked before the file is fetched.
 * @throws UserFacingError for any other kind
 */
export function toUploadName(name: string): string {
  const baseName = toBaseName(name);
  if (!isUploadKind(baseName)) {
    throw new UserFacingError(
      `The file ${baseName} is not one the service takes: attach a .zip, .tar.gz or .tar archive, or a single code file (such as .js, .ts, .lua or .py). Nothing was sent.`,
    );
  }
  return baseName;
}

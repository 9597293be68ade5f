/**
 * C0 control characters (U+0000 to U+001F). PostgreSQL refuses U+0000 in TEXT and JSONB outright (one such
 * character failed a whole transaction of the record's writer, again every second), and none of them means
 * anything in a name, an id or a reason shown in Discord: text a delivery carries loses them before it reaches a
 * column or an embed. Tab, line feed and carriage return may lay out free text (a case's reason) and are kept
 * there.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is this module's job
const ANY_CONTROL = /[\u0000-\u001f]/;
// eslint-disable-next-line no-control-regex -- as above
const ALL_CONTROLS = /[\u0000-\u001f]/g;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS_BUT_LAYOUT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
/**
 * In JSON text, a backslash escape: an escaped backslash (kept, so what follows it is read as text), or one that
 * stands for a control character other than tab, line feed and carriage return (`\u0000`…`\u001f`, `\b`, `\f`).
 * JSON allows control characters in strings only as escapes, and backslashes only in strings.
 */
const ESCAPED_CONTROL = /\\(?:\\|u00(?:0[0-8BCEFbcef]|1[0-9A-Fa-f])|[bf])/g;

/** Whether `text` carries a C0 control character (tab and line breaks included). */
export function hasControlCharacters(text: string): boolean {
  return ANY_CONTROL.test(text);
}

/**
 * `text` without its C0 control characters; with `keepLayout`, tab, line feed and carriage return stay (free
 * text such as a case's reason). Text without any is returned as it is.
 */
export function removeControlCharacters(text: string, keepLayout = false): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(keepLayout ? CONTROLS_BUT_LAYOUT : ALL_CONTROLS, '');
}

/**
 * JSON text whose strings (keys too) no longer carry a control character but tab, line feed and carriage return:
 * the escapes standing for them are taken out of the text, so whatever parses it gets no such character, however
 * deep it sits. One pass over the text, no parse: a body nested thousands deep costs no stack. Meant for JSON
 * text (a stored body: the intake parsed it before storing it); a backslash outside a string is no JSON anyway.
 */
export function removeEscapedControlCharacters(json: string): string {
  if (!json.includes('\\')) return json;
  return json.replace(ESCAPED_CONTROL, (escape) => (escape === '\\\\' ? escape : ''));
}

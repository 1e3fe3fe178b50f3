/**
 * Bidi embeddings and overrides (U+202A–U+202E), bidi isolates
 * (U+2066–U+2069), C0 controls but tab and newline (NUL, BEL, ESC, CR…),
 * DEL and the C1 controls: characters that draw nothing or reorder what is
 * drawn, so text holding them reads differently from what it is.
 */
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * `text` without the characters that make text read otherwise than it is
 * (the Trojan Source pattern): bidi overrides and isolates, and control
 * characters other than tab and newline. Ghost text passes every model reply
 * through it before showing or inserting any of it, so accepting a
 * suggestion never puts them into the person's text. Removing characters one
 * by one keeps a streamed reply's prefixes prefixes.
 *
 * @example
 * stripUnsafeText('safe\u202Etxt.exe\u0007'); // 'safetxt.exe'
 */
export function stripUnsafeText(text: string): string {
  return text.replace(UNSAFE, '');
}

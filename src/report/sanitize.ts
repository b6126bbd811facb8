/** Text from a server made safe for every output: a terminal, HTML, XML and Markdown. */

/**
 * Makes a string safe to show in any text output (XML 1.0, HTML, a terminal, Markdown):
 * - C0 controls other than tab and line feed, DEL and C1 controls (which include the terminal
 *   escape introducers) become a visible `\u001b`-style escape, so the reader sees that the
 *   server sent them and nothing can drive the terminal;
 * - CRLF becomes LF; a lone CR becomes `\r`;
 * - lone surrogates and the non-characters U+FFFE / U+FFFF become U+FFFD.
 * Every remaining character is legal in XML 1.0.
 */
export function sanitizeText(input: string): string {
  let out = '';
  const s = input.replace(/\r\n/g, '\n');
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i += 1;
      } else {
        out += '\uFFFD';
      }
      continue;
    }
    if (code >= 0xdc00 && code <= 0xdfff) {
      out += '\uFFFD';
      continue;
    }
    if (code === 0x09 || code === 0x0a) {
      out += s[i]!;
      continue;
    }
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      out += code === 0x0d ? '\\r' : `\\u${code.toString(16).padStart(4, '0')}`;
      continue;
    }
    if (code === 0xfffe || code === 0xffff) {
      out += '\uFFFD';
      continue;
    }
    out += s[i]!;
  }
  return out;
}

/**
 * One line, capped at `max` chars: spaces and tabs are kept as they are (a padded value must stay
 * visibly padded) and each line break inside is shown as `\n` (U+2028 and U+2029 as `\u2028`,
 * `\u2029`), as sanitizeText shows `\r`.
 */
export function oneLine(input: string, max = 200): string {
  const flat = sanitizeText(input)
    .replace(/^\n+|\n+$/g, '')
    .replace(/[\n\u2028\u2029]/g, (c) => (c === '\n' ? '\\n' : `\\u${c.charCodeAt(0).toString(16)}`));
  return truncate(flat, max);
}

/** Cuts at `max` code points and adds an ellipsis; never splits a surrogate pair. */
export function truncate(input: string, max: number): string {
  const chars = Array.from(input);
  if (chars.length <= max) return input;
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

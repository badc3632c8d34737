/** Control characters made visible: the one escaping of linkctl's and the TUI's human output. */

// C0 controls but tab and line feed, DEL, C1 controls: what a terminal may act on.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/**
 * `s` safe to print on a terminal: each control character (ESC, BEL, CR, backspace, DEL, the
 * C1 range…) shown as `\xNN`, so an escape sequence in data is printed as text, never run.
 * Tab and line feed are kept (callers lay them out). Applied by output.ts's writers
 * (tables, records, notes, warnings), formatError and commander's error output; never to --json.
 */
export function visible(s: string): string {
  return s.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

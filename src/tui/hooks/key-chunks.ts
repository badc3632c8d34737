/**
 * The keys of one read from the terminal. Ink hands useInput one input per read, with escape
 * sequences (arrows, Shift-Tab…) already apart, but keys typed faster than a read (over SSH,
 * with key repeat, or a test's one write) come as one string: four Backspaces are "\x7f\x7f\x7f\x7f",
 * which no handler reads as a key. `splitKeys` cuts such an input into the keys Ink gives for
 * each when it comes alone; a run of printable text stays one piece (a paste: `takeText` cuts it
 * when nothing takes text).
 */
import type { Key } from 'ink'

export type KeyPress = [input: string, key: Key]

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
}

/** A control character as Ink reports it when it is read alone. */
function controlKey(ch: string): KeyPress {
  const code = ch.codePointAt(0) ?? 0
  if (ch === '\r') return [ch, { ...NO_KEY, return: true }]
  if (ch === '\t') return ['', { ...NO_KEY, tab: true }]
  if (ch === '\b') return ['', { ...NO_KEY, backspace: true }]
  if (ch === '\x7f') return ['', { ...NO_KEY, delete: true }]
  if (ch === '\x1b') return ['', { ...NO_KEY, escape: true, meta: true }]
  if (code === 0) return ['`', { ...NO_KEY, ctrl: true }]
  if (code >= 1 && code <= 26) return [String.fromCharCode(code + 96), { ...NO_KEY, ctrl: true }]
  return [ch, { ...NO_KEY }]
}

const isControl = (ch: string) => ch < ' ' || ch === '\x7f'

/** A printable key, shifted when it is a capital letter (as Ink says). */
export function textKey(text: string): KeyPress {
  return [text, { ...NO_KEY, shift: /^[A-Z]$/.test(text) }]
}

/** The keys in one input from Ink: itself when it is one key, else each control key apart. */
export function splitKeys(input: string, key: Key): KeyPress[] {
  // A named key (input ''), a Ctrl or Meta combination, or one character: already one key.
  if (input.length <= 1 || key.ctrl || key.meta || ![...input].some(isControl)) return [[input, key]]
  const keys: KeyPress[] = []
  let text = ''
  for (const ch of input) {
    if (!isControl(ch)) {
      text += ch
      continue
    }
    if (text) keys.push(textKey(text))
    text = ''
    keys.push(controlKey(ch))
  }
  if (text) keys.push(textKey(text))
  return keys
}

/** Whether the press is printable text of more than one character (a paste or typed ahead). */
export function isTextRun([input, key]: KeyPress): boolean {
  return [...input].length > 1 && !key.ctrl && !key.meta && ![...input].some(isControl)
}

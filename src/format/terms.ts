/**
 * `text` with each field name of `names` (a whole word) said as its name there: an API refusal in
 * the terms of what the user wrote (`customSlug` → `--short-code`, or a file's column).
 */
export function inTermsOf(text: string, names: Readonly<Record<string, string>>): string {
  const fields = Object.keys(names)
  if (fields.length === 0) return text
  const words = fields.map(escapeRegExp)
  return text.replace(new RegExp(`\\b(${words.join('|')})\\b`, 'g'), (field) => names[field] ?? field)
}

/** A word as a POSIX shell reads it back: quoted unless it holds only safe characters. */
export const shellWord = (w: string): string =>
  /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`

/** 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st. */
export function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')
  return `${n}${suffix}`
}

/** `text` matched literally inside a regular expression. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * `text` with each field name of `names` (a whole word) said as its name there: an API refusal in
 * the terms of what the user wrote (`customSlug` → `--short-code`, or a file's column).
 */
export function inTermsOf(text: string, names: Readonly<Record<string, string>>): string {
  const fields = Object.keys(names)
  if (fields.length === 0) return text
  const words = fields.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return text.replace(new RegExp(`\\b(${words.join('|')})\\b`, 'g'), (field) => names[field] ?? field)
}

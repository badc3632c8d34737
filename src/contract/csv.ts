/**
 * The one CSV writer of linkd's exports (analytics) and linkctl's (links export, the import's
 * rejected-rows file): RFC 4180 records (CRLF line ends; a field quoted when it holds a comma, a
 * quote, CR, LF or edge spaces; quotes doubled), formula-safe. A text starting with =, +, -, @,
 * a tab or CR (after any apostrophes) gets one more leading apostrophe, so that a spreadsheet
 * shows it instead of running it as a formula; `unprotectCsvText` takes it off again on import.
 * Numbers are written as numbers (a negative amount stays a number).
 */
export type CsvValue = string | number | boolean | null | undefined

const FORMULA = /^'*[=+\-@\t\r]/
const PROTECTED = /^'+[=+\-@\t\r]/

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return ''
  if (typeof value !== 'string') return String(value)
  const text = FORMULA.test(value) ? `'${value}` : value
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One record with its CRLF line end. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`
}

/** A field as it was before `csvCell` protected it (`'=1` → `=1`); other text unchanged. */
export function unprotectCsvText(field: string): string {
  return PROTECTED.test(field) ? field.slice(1) : field
}

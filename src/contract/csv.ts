/**
 * CSV both ways. The one CSV writer of linkd's exports (analytics) and linkctl's (links export,
 * the import's rejected-rows file): RFC 4180 records (CRLF line ends; a field quoted when it
 * holds a comma, a quote, CR, LF or edge spaces; quotes doubled), formula-safe. A text starting with =, +, -, @,
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

/**
 * The one CSV reader (imports, in linkd and linkctl alike), RFC 4180. It is incremental (text
 * is pushed in chunks as it is read) and tells the line of the input file each record starts on, so that errors can name
 * it. It accepts LF, CRLF and lone CR line ends, a byte order mark, quoted fields holding
 * commas, quotes ("" inside quotes) and line breaks; blank lines are skipped. A malformed record
 * becomes an error record, with its text as it was (to be fixed by hand), and parsing goes on at
 * the next line.
 */

export type CsvRecord = { line: number; fields: string[] } | { line: number; error: string; text: string }

type State = 'start' | 'unquoted' | 'quoted' | 'quote' | 'skip'

export class CsvParser {
  private state: State = 'start'
  private field = ''
  private fields: string[] = []
  /** Physical line of the next character. */
  private line = 1
  /** Line the current record started on. */
  private recordLine = 1
  private afterCR = false
  private first = true
  private error = ''
  /** The current record's text as read (line breaks inside quotes included). */
  private raw = ''
  private out: CsvRecord[] = []

  /** Parses `text` and returns the records completed by it. */
  push(text: string): CsvRecord[] {
    let i = 0
    if (this.first && text.length > 0) {
      this.first = false
      if (text.charCodeAt(0) === 0xfeff) i = 1
    }
    for (; i < text.length; i++) {
      const c = text[i] as string
      if (this.afterCR) {
        this.afterCR = false
        // The LF of a CRLF: the line was already counted (and the record ended) at the CR.
        if (c === '\n') {
          if (this.state === 'quoted') {
            this.field += c
            this.raw += c
          }
          continue
        }
      }
      const newline = c === '\n' || c === '\r'
      if (c === '\r') this.afterCR = true
      // A line break ending the record is not part of its text.
      if (!newline || this.state === 'quoted') this.raw += c
      switch (this.state) {
        case 'quoted':
          if (c === '"') this.state = 'quote'
          else {
            this.field += c
            if (newline) this.line++
          }
          break
        case 'skip':
          if (newline) this.endRecord()
          break
        case 'quote':
          if (c === '"') {
            this.field += '"'
            this.state = 'quoted'
          } else if (c === ',') this.endField()
          else if (newline) this.endRecord()
          else this.fail('unexpected character after a closing quote')
          break
        default:
          if (c === ',') this.endField()
          else if (newline) this.endRecord()
          else if (c === '"') {
            if (this.state === 'start' && this.field === '') this.state = 'quoted'
            else
              this.fail('unexpected quote in an unquoted field (quote the whole field and double the quote)')
          } else {
            this.field += c
            this.state = 'unquoted'
          }
      }
    }
    return this.take()
  }

  /** Ends the input: the last record (without a final line break) and an unclosed quote. */
  end(): CsvRecord[] {
    if (this.state === 'quoted') {
      this.out.push({ line: this.recordLine, error: 'unterminated quoted field', text: this.raw })
    } else if (this.state === 'skip') {
      this.out.push({ line: this.recordLine, error: this.error, text: this.raw })
    } else if (this.fields.length > 0 || this.field !== '' || this.state === 'quote') {
      this.fields.push(this.field)
      this.out.push({ line: this.recordLine, fields: this.fields })
    }
    this.reset()
    return this.take()
  }

  private take(): CsvRecord[] {
    const out = this.out
    this.out = []
    return out
  }

  private fail(message: string): void {
    this.error = message
    this.state = 'skip'
  }

  private endField(): void {
    this.fields.push(this.field)
    this.field = ''
    this.state = 'start'
  }

  private endRecord(): void {
    if (this.state === 'skip') this.out.push({ line: this.recordLine, error: this.error, text: this.raw })
    else if (this.fields.length > 0 || this.field !== '' || this.state === 'quote') {
      this.fields.push(this.field)
      this.out.push({ line: this.recordLine, fields: this.fields })
    }
    this.line++
    this.reset()
  }

  private reset(): void {
    this.state = 'start'
    this.field = ''
    this.fields = []
    this.error = ''
    this.raw = ''
    this.recordLine = this.line
  }
}

/** Parses a whole text (tests, small inputs). */
export function parseCsv(text: string): CsvRecord[] {
  const p = new CsvParser()
  return [...p.push(text), ...p.end()]
}

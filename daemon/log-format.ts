/**
 * How linkd writes its logs: JSON lines (pino's own format; the default when stdout is not a
 * terminal, for log collectors) or one readable line per entry on a terminal. LINKD_LOG_FORMAT
 * (`auto`, `json`, `pretty`) forces either. No dependency: pino hands each entry to `write` as a
 * JSON line, which is reformatted here.
 */

export type LogFormat = 'auto' | 'json' | 'pretty'

const LEVELS: Record<number, [label: string, colour: string]> = {
  10: ['TRACE', '90'],
  20: ['DEBUG', '36'],
  30: ['INFO', '32'],
  40: ['WARN', '33'],
  50: ['ERROR', '31'],
  60: ['FATAL', '35'],
}

/** Fields shown in the line's head (or not at all), not as key=value. */
const HEAD_FIELDS = new Set([
  'level',
  'time',
  'msg',
  'pid',
  'hostname',
  'req',
  'res',
  'responseTime',
  'err',
  'v',
])

interface Entry {
  level?: number
  time?: number
  msg?: string
  req?: { method?: string; url?: string; remoteAddress?: string }
  res?: { statusCode?: number }
  responseTime?: number
  err?: { type?: string; message?: string; stack?: string }
  [key: string]: unknown
}

function paint(colour: boolean, code: string, text: string): string {
  return colour ? `\x1b[${code}m${text}\x1b[0m` : text
}

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v
  return JSON.stringify(v)
}

/** One JSON log line as a readable line: `12:00:01.234 INFO  request completed GET /x 200 1.2ms reqId=…`. */
export function prettyLine(json: string, colour: boolean): string {
  let entry: Entry
  try {
    entry = JSON.parse(json) as Entry
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`
  }
  const [label, code] = LEVELS[entry.level ?? 30] ?? ['LOG', '0']
  const time = entry.time === undefined ? '--:--:--.---' : new Date(entry.time).toISOString().slice(11, 23)
  const parts = [paint(colour, '90', time), paint(colour, code, label.padEnd(5)), entry.msg ?? '']
  if (entry.req?.method) parts.push(`${entry.req.method} ${entry.req.url ?? ''}`)
  if (entry.res?.statusCode !== undefined) parts.push(String(entry.res.statusCode))
  if (typeof entry.responseTime === 'number') parts.push(`${entry.responseTime.toFixed(1)}ms`)
  for (const [key, v] of Object.entries(entry)) {
    if (!HEAD_FIELDS.has(key) && v !== undefined) parts.push(paint(colour, '90', `${key}=`) + value(v))
  }
  let line = parts.filter((p) => p !== '').join(' ')
  if (entry.err) {
    line += ` ${paint(colour, '31', `${entry.err.type ?? 'Error'}: ${entry.err.message ?? ''}`)}`
    const stack = entry.err.stack?.split('\n').slice(1)
    if (stack?.length) line += `\n${stack.join('\n')}`
  }
  return `${line}\n`
}

/** Readable lines on `out` (a pino destination: it writes one JSON line per call). */
export function prettyDestination(
  out: NodeJS.WritableStream,
  colour: boolean,
): { write(line: string): void } {
  return { write: (line) => void out.write(prettyLine(line, colour)) }
}

/** Whether entries are pretty-printed: `pretty`, or `auto` on a terminal. */
export function usePretty(format: LogFormat, stdoutIsTTY: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTTY)
}

/** Hostile values of the fuzz test (test/daemon/openapi/openapi-fuzz.test.ts), by what they attack. */
import {
  RawJson,
  pick,
  sample,
  serialize,
  typeOf,
  type Hints,
  type OpenApiDoc,
  type Rng,
  type Schema,
  type Val,
} from './openapi-fuzz.js'

export const KB = 1024
export const HUGE = 'x'.repeat(100 * KB)
export const DEPTHS = [5_000, 50_000]

export const HOSTILE_STRINGS: readonly Val[] = [
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀 👩‍👩‍👧‍👦', // astral plane, ZWJ sequence
  `e${'\u0301'.repeat(300)}`, // combining marks
  '\u202Egnp.exe\u202C', // RTL override
  'zero\u200Bwidth\u200C\u200D\uFEFF',
  'nul\u0000byte',
  'line\nbreak\r\ttab\u0007bell\u001b[31m',
  '\uFFFE\uFFFF\u{10FFFF}',
  'İıſK ß ﬀ', // case-mapping hazards
  '   ',
  '',
  new RawJson('"lone \\ud800 high"'),
  new RawJson('"\\udc00 lone low"'),
  new RawJson('"\\u0000"'),
  "' OR 1=1 --; DROP TABLE links;",
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '%s%n%x%00',
  '${jndi:ldap://x}{{7*7}}',
  '__proto__',
  '%_\\[',
]

export const HUGE_NUMBERS: readonly Val[] = [
  1e308,
  -1e308,
  new RawJson('9007199254740993'),
  new RawJson('-9007199254740993'),
  new RawJson('1e999'),
  new RawJson('-1e999'),
  new RawJson(`1${'0'.repeat(400)}`),
  new RawJson('-0'),
  new RawJson('1.0000000000000000000000001'),
  5e-324,
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
]

export const WRONG_TYPES: Record<string, readonly Val[]> = {
  string: [123, -1, 1.5, true, false, [], {}, ['fuzz'], { a: 'b' }],
  integer: ['1', 'abc', '', 1.5, true, [], {}, [1], { n: 1 }],
  number: ['1', 'abc', '', true, [], {}, [1]],
  boolean: ['true', 'false', 1, 0, 'yes', [], {}],
  array: ['fuzz', 1, true, {}, { 0: 'a' }],
  object: ['fuzz', 1, true, [], [{}]],
  any: ['fuzz', 1, true, [], {}],
}

export const QUERY_JUNK = [
  '%',
  '%ZZ',
  '%00',
  '%E0%A4%A',
  '&&==&',
  '=x',
  'a[]=1',
  'a[b][c]=1',
  ';x=1',
  '%F0%9F%98',
]

export const PATH_JUNK = [
  '0',
  '-1',
  'null',
  'undefined',
  '1e308',
  ' ',
  '%20',
  'x'.repeat(101),
  'x'.repeat(5_000),
  '%00',
  '%2e%2e%2f%2e%2e%2f',
  '..',
  '%ZZ',
  encodeURIComponent('𝔘😀'),
  encodeURIComponent('\u202Eevil'),
  '%C0%AE',
  `lnk_${'A'.repeat(30)}`,
  encodeURIComponent("'; DROP TABLE links;--"),
  'a%2Fb',
]

export const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/jsonx',
  'application/vnd.api+json',
  '*/*',
  'application/json, text/plain',
  'ÿ/ÿ',
]

export const JUNK_BODIES: readonly string[] = [
  'null',
  '[]',
  '"fuzz"',
  '123',
  'true',
  '{',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
  '\uFEFF{}',
  '{} trailing',
  '[{}]',
  `{"a":"${'x'.repeat(100 * KB)}"}`,
]

export const AUTH_JUNK: ReadonlyArray<Record<string, string>> = [
  { authorization: 'Bearer' },
  { authorization: 'Bearer ' },
  { authorization: `Bearer lk_live_${'A'.repeat(32)}` },
  { authorization: `Bearer lk_test_${'0'.repeat(31)}` },
  { authorization: `Bearer ${'x'.repeat(8 * KB)}` },
  { authorization: 'Basic dXNlcjpwYXNz' },
  { authorization: 'Bearer ÿÿÿÿ' },
  { 'x-api-key': ' ' },
  { 'x-api-key': `lk_live_${'z'.repeat(32)}` },
  { 'x-api-key': 'ÿ'.repeat(300) },
]

export const HEADER_JUNK = ['', ' ', 'x'.repeat(8 * KB), 'ÿþ', '-1', '1e308', 'null', '{"a":1}', 'a,b', '\t']

/** Deep nesting as raw JSON text (no recursion on either side of the test). */
export function deep(rng: Rng): RawJson {
  const depth = pick(rng, DEPTHS)
  return rng() < 0.5
    ? new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`)
    : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)
}

/** Dates the schema's pattern may let through: impossible, out of range, odd offsets. */
export const DATES = [
  '0000-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  '2026-02-30T00:00:00.000Z',
  '2026-13-45T25:61:61.000Z',
  '2026-11-21T10:00:00+14:00',
  '2026-11-21',
  '1970-01-01T00:00:00.000Z',
  '2026-11-21T10:00:00.000000001Z',
  '20261121T100000Z',
  '9999-99-99',
  '0000-00-00',
  '2026-11-01T99:99:99',
  '2026-11-01garbage',
  '2026-11-21T10:00:00.000Z\u0000',
]

/** URLs that pass a "starts with http(s)://" check and little else. */
export const URLS = [
  'http://',
  'https://',
  `http://${'a'.repeat(2040)}`,
  'https://[::1]/',
  'http://[::ffff:127.0.0.1]:80/',
  'https://256.256.256.256/',
  'https://a b.example/',
  'https://%%%/',
  'https://example.com/\u202Eevil',
  'https://example.com:99999/',
  'https://example.com:0/',
  'http://0x7f.1/',
  'https://xn--/',
  'https://münchen.example/',
  `https://example.com/${'%'.repeat(10)}`,
  'javascript:alert(1)',
  'https://example.com\\@evil.example/',
  'https://.../',
  'http://localhost:1/',
  'file:///etc/passwd',
  'HTTPS://EXAMPLE.COM',
  'https://example.com/?a=%ZZ',
]

/** Host names a domain rule has to refuse (or store exactly). */
export const HOSTS = [
  'go..fuzz.test',
  'go.fuzz.test.',
  '*.fuzz.test',
  `${'a'.repeat(64)}.fuzz.test`,
  `${'a.'.repeat(130)}test`,
  'xn--zz.fuzz.test',
  'müller.fuzz.test',
  'go.fuzz.test:8080',
  '[::1]',
  '127.0.0.1',
  'localhost',
  'GO.FUZZ.TEST',
  '-go.fuzz.test',
  'go_.fuzz.test',
  '.',
]

/** Addresses and CIDR ranges, broken in every way an allowlist parser may trip on. */
export const IPS = [
  '999.1.1.1',
  '1.2.3.4/33',
  '1.2.3.4/-1',
  '::ffff:1.2.3.4/200',
  '0.0.0.0/0',
  '::/0',
  'fe80::1%eth0',
  '1.2.3',
  '01.02.03.004',
  '0x7f000001',
  '1.2.3.4/',
  '/24',
  '1:2:3:4:5:6:7:8:9',
  '::1/129',
  '1.2.3.4/1e3',
]

/** What a string field means, as far as its schema and name tell: the values that attack it. */
export function semanticValues(name: string, s: Schema): readonly string[] | undefined {
  if (
    s.format === 'date-time' ||
    s.format === 'date' ||
    /\\d\{4\}-/.test(s.pattern ?? '') ||
    /date/i.test(name) ||
    /At$/.test(name)
  )
    return DATES
  if (s.format === 'uri' || s.format === 'url' || /^\^\[Hh\]/.test(s.pattern ?? '') || /url$/i.test(name))
    return URLS
  if (/domain$|host/i.test(name)) return HOSTS
  if (/ips?$/i.test(name)) return IPS
  return undefined
}

/** Standard request headers with values a client should never send. */
export const MISC_HEADERS: ReadonlyArray<Record<string, string>> = [
  { host: 'evil..example' },
  { host: `${'a'.repeat(300)}.example` },
  { host: '[::1' },
  { host: 'localhost:99999' },
  { accept: 'application/xml;q=2, */*;q=-1' },
  { accept: 'text/html' },
  { 'accept-encoding': 'gzip;q=2, br, *;q=-1' },
  { 'content-encoding': 'gzip' },
  { 'content-encoding': 'br, deflate, zstd' },
  { 'x-forwarded-for': '1.2.3.4, ::1, not-an-ip, 999.1.1.1' },
  { 'x-forwarded-host': 'evil.example' },
  { 'x-http-method-override': 'DELETE' },
  { 'if-none-match': '*' },
  { range: 'bytes=0-0,-1' },
  { origin: 'null' },
  { cookie: `a=${'x'.repeat(4 * KB)}; =; ;;` },
  { 'user-agent': 'ÿ'.repeat(2 * KB) },
  { referer: 'javascript:alert(1)' },
  { 'x-request-id': '../../etc' },
]

/** Values just inside and just outside the schema's bounds (strings, numbers, arrays, enums). */
export function boundaries(doc: OpenApiDoc, s: Schema, hints: Hints): Val[] {
  const out: Val[] = []
  const str = (n: number) => 'a'.repeat(Math.max(0, n))
  switch (typeOf(s)) {
    case 'string':
      if (s.minLength !== undefined) out.push(str(s.minLength - 1), str(s.minLength))
      if (s.maxLength !== undefined) out.push(str(s.maxLength), str(s.maxLength + 1))
      break
    case 'integer':
    case 'number': {
      for (const [b, d] of [
        [s.minimum, -1],
        [s.maximum, 1],
        [typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined, -1],
        [typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : undefined, 1],
      ] as const)
        if (b !== undefined) out.push(b, b + d, b - d)
      if (typeOf(s) === 'integer') out.push((s.minimum ?? 0) + 0.5)
      break
    }
    case 'array': {
      const item = () => sample(doc, s.items, hints)
      if (s.minItems !== undefined) out.push(Array.from({ length: Math.max(0, s.minItems - 1) }, item))
      if (s.maxItems !== undefined) {
        out.push(Array.from({ length: s.maxItems }, item))
        out.push(Array.from({ length: s.maxItems + 1 }, item))
      }
      break
    }
  }
  const e = s.enum?.find((v) => typeof v === 'string')
  if (typeof e === 'string') out.push(e.toUpperCase(), ` ${e}`, `${e}\u0000`, e.slice(0, -1))
  return out
}

export function queryBoundaries(s: Schema): string[] {
  return boundaries({ paths: {} }, s, () => undefined).map((v) => (typeof v === 'string' ? v : serialize(v)))
}

import { readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import proxyAddr from '@fastify/proxy-addr'
import Type, { type Static } from 'typebox'
import { Compile } from 'typebox/compile'
import { PLANS, TEAM_LIMITS } from '../src/contract/limits.js'
import { StringEnum } from '../src/contract/common.js'
import { blockedPort } from '../src/contract/blocked-ports.js'
import { parseResolvers } from './modules/domains/index.js'
import { SETTINGS } from './settings.js'
import { parseMasterKey } from './crypto.js'

/** The longest delay Node's timers hold (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
const TIMER_MAX_MS = 2_147_483_647

/** A label of a DNS host name: 1-63 letters, digits and hyphens, no hyphen first or last. */
const HOST_LABEL = '[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?'

/**
 * Upper bounds of the counts and sizes, each far above any sane value, so that a typo (digits
 * too many) is refused rather than read as "no limit". Rates per minute: one process answers
 * some 40,000 requests a second, 2.4 million a minute.
 */
export const SETTING_MAX = {
  ratePerMinute: 10_000_000,
  /** Events waiting in memory (about 1 KB each). */
  ingestQueue: 1_000_000,
  /** A request body is held whole in memory and parsed. */
  bodyBytes: 100 * 1024 * 1024,
  skanHeldRows: 1_000_000,
  skanHeldBytes: 1024 * 1024 * 1024,
  /** A client address has at most 65,535 source ports. */
  connectionsPerIp: 65_535,
  /** A packet crosses at most 255 hops (the IP TTL), so does a request through proxies. */
  proxyHops: 255,
} as const

/**
 * The one configuration schema. Sources, highest first: command-line flags, environment
 * (LINKD_*), an optional JSON config file (--config / LINKD_CONFIG), defaults. Validated once.
 */
export const ConfigSchema = Type.Object(
  {
    host: Type.String({ minLength: 1 }),
    port: Type.Integer({ minimum: 0, maximum: 65535 }),
    dataDir: Type.String({ minLength: 1 }),
    publicUrl: Type.String({ pattern: '^https?://' }),
    shortDomain: Type.String({ minLength: 1 }),
    databaseUrl: Type.String({ minLength: 1 }),
    secretKey: Type.Optional(Type.String({ minLength: 1 })),
    logLevel: StringEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    logFormat: StringEnum(['auto', 'json', 'pretty']),
    trustProxy: Type.Union([Type.Boolean(), Type.Integer({ minimum: 0 }), Type.String()]),
    defaultPlan: StringEnum(PLANS),
    rateLimitPerIp: Type.Integer({ minimum: 1, maximum: SETTING_MAX.ratePerMinute }),
    rateLimitPerOrg: Type.Integer({ minimum: 1, maximum: SETTING_MAX.ratePerMinute }),
    rateLimitPerMember: Type.Integer({ minimum: 1, maximum: SETTING_MAX.ratePerMinute }),
    rateLimitRedirectsPerIp: Type.Integer({ minimum: 1, maximum: SETTING_MAX.ratePerMinute }),
    ingestRateLimitPerClient: Type.Integer({ minimum: 1, maximum: SETTING_MAX.ratePerMinute }),
    ingestRateLimitPerGame: Type.Integer({ minimum: 1, maximum: SETTING_MAX.ratePerMinute }),
    ingestQueueMax: Type.Integer({ minimum: 1, maximum: SETTING_MAX.ingestQueue }),
    bodyLimitBytes: Type.Integer({ minimum: 1024, maximum: SETTING_MAX.bodyBytes }),
    shutdownTimeoutMs: Type.Integer({ minimum: 100, maximum: TIMER_MAX_MS }),
    jobs: Type.Boolean(),
    geoCityDb: Type.Optional(Type.String({ minLength: 1 })),
    webhookAllowPrivateNetworks: Type.Boolean(),
    webhookAllowLoopback: Type.Boolean(),
    webhookConcurrency: Type.Integer({ minimum: 1, maximum: 10_000 }),
    webhookConcurrencyPerOrg: Type.Integer({ minimum: 1, maximum: 10_000 }),
    dnsResolvers: Type.String({ minLength: 1 }),
    // Labels of a DNS host name (a trailing dot allowed), or an IP address (derived from LINKD_HOST).
    cnameTarget: Type.Optional(
      Type.String({
        pattern: `^(${HOST_LABEL}(\\.${HOST_LABEL})*\\.?|[0-9a-f.]*:[0-9a-f:.]*)$`,
      }),
    ),
    aRecordIp: Type.Optional(
      Type.String({ pattern: '^(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}$' }),
    ),
    acmeDirectory: Type.String({ pattern: '^(https?://.+|off)$' }),
    acmeEmail: Type.Optional(Type.String({ pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' })),
    acmeCaFile: Type.Optional(Type.String({ minLength: 1 })),
    acmePrecheck: Type.Boolean(),
    httpsPort: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
    skanHeldMax: Type.Integer({ minimum: 1, maximum: SETTING_MAX.skanHeldRows }),
    skanHeldMaxBytes: Type.Integer({ minimum: 4096, maximum: SETTING_MAX.skanHeldBytes }),
    connectionsPerIp: Type.Integer({ minimum: 1, maximum: SETTING_MAX.connectionsPerIp }),
    headersTimeoutMs: Type.Integer({ minimum: 100, maximum: TIMER_MAX_MS }),
    gamingEnabled: Type.Boolean(),
    metricsToken: Type.Optional(Type.String({ minLength: 16 })),
  },
  { additionalProperties: false },
)
export type Config = Readonly<Static<typeof ConfigSchema>>

/**
 * A database URL fit to print or log: a PostgreSQL URL without its password (the
 * `user:password@` part and a `password=` parameter); a SQLite URL as it is.
 */
export function redactDatabaseUrl(databaseUrl: string): string {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) return databaseUrl
  try {
    const url = new URL(databaseUrl)
    url.password = ''
    url.searchParams.delete('password')
    return url.toString()
  } catch {
    return databaseUrl.replace(/\/\/[^@/]*@/, '//***@').replace(/password=[^&]*/g, 'password=***')
  }
}

/** Let's Encrypt's production ACME directory (the default of LINKD_ACME_DIRECTORY). */
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory'

export class ConfigError extends Error {
  override name = 'ConfigError'
}

const NUMERIC: ReadonlySet<keyof Config> = new Set([
  'port',
  'rateLimitPerIp',
  'rateLimitPerOrg',
  'rateLimitPerMember',
  'rateLimitRedirectsPerIp',
  'ingestRateLimitPerClient',
  'ingestRateLimitPerGame',
  'ingestQueueMax',
  'bodyLimitBytes',
  'shutdownTimeoutMs',
  'httpsPort',
  'webhookConcurrency',
  'webhookConcurrencyPerOrg',
  'skanHeldMax',
  'skanHeldMaxBytes',
  'connectionsPerIp',
  'headersTimeoutMs',
])

const BOOLEAN: ReadonlySet<keyof Config> = new Set([
  'jobs',
  'webhookAllowPrivateNetworks',
  'webhookAllowLoopback',
  'acmePrecheck',
  'gamingEnabled',
])

function coerce(key: keyof Config, raw: unknown): unknown {
  if (typeof raw !== 'string') return raw
  if (NUMERIC.has(key)) return /^\d+$/.test(raw.trim()) ? Number(raw) : raw
  if (BOOLEAN.has(key))
    return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw
  if (key === 'trustProxy') {
    if (raw === 'true') return true
    if (raw === 'false' || raw === '') return false
    if (/^\d+$/.test(raw)) return Number(raw)
  }
  return raw
}

export interface ConfigSources {
  /** Already-parsed flags, keyed by Config key. */
  flags?: Partial<Record<keyof Config, unknown>>
  env?: NodeJS.ProcessEnv
  /** Path of a JSON config file; defaults to LINKD_CONFIG. */
  file?: string | undefined
}

const validator = Compile(ConfigSchema)

export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env
  const merged: Record<string, unknown> = {
    host: '127.0.0.1',
    port: 8080,
    dataDir: './data',
    logLevel: 'info',
    logFormat: 'auto',
    trustProxy: false,
    defaultPlan: 'enterprise',
    rateLimitPerIp: 3000,
    rateLimitPerOrg: 30000,
    rateLimitPerMember: TEAM_LIMITS.perMemberPerMinute,
    rateLimitRedirectsPerIp: 60000,
    ingestRateLimitPerClient: 1000,
    ingestRateLimitPerGame: 60_000,
    ingestQueueMax: 50_000,
    bodyLimitBytes: 1_048_576,
    shutdownTimeoutMs: 10_000,
    jobs: true,
    webhookAllowPrivateNetworks: false,
    webhookAllowLoopback: true,
    webhookConcurrency: 64,
    webhookConcurrencyPerOrg: 16,
    dnsResolvers: '1.1.1.1,8.8.8.8,9.9.9.9',
    acmeDirectory: LETS_ENCRYPT_DIRECTORY,
    acmePrecheck: true,
    skanHeldMax: 10_000,
    skanHeldMaxBytes: 16 * 1024 * 1024,
    connectionsPerIp: 256,
    headersTimeoutMs: 10_000,
    gamingEnabled: true,
  }
  /** Each setting given, as given (the text typed, or the config file's JSON value): errors quote it. */
  const typed: Record<string, unknown> = {}
  const set = (key: string, value: unknown) => {
    typed[key] = value
    merged[key] = coerce(key as keyof Config, value)
  }
  const filePath = sources.file ?? env.LINKD_CONFIG
  if (filePath) {
    let parsed: unknown
    try {
      parsed = JSON.parse(readFileSync(filePath, 'utf8'))
    } catch (err) {
      throw new ConfigError(`cannot read config file ${filePath}: ${(err as Error).message}`)
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new ConfigError(`config file ${filePath} must hold a JSON object`)
    for (const [k, v] of Object.entries(parsed)) {
      if (!SETTINGS.some((s) => s.key === k))
        throw new ConfigError(`config file ${filePath}: unknown setting "${k}"`)
      set(k, v)
    }
  }
  for (const s of SETTINGS) {
    const v = env[s.env]
    if (v !== undefined && v !== '') set(s.key, v)
  }
  for (const [k, v] of Object.entries(sources.flags ?? {})) if (v !== undefined) set(k, v)

  merged.dataDir = resolve(String(merged.dataDir))
  // Validate what was given before deriving defaults from it, so that a bad LINKD_PORT is reported
  // as such rather than as a broken derived public URL.
  check(
    {
      publicUrl: 'http://placeholder',
      shortDomain: 'placeholder',
      databaseUrl: 'placeholder',
      ...merged,
    },
    typed,
  )
  if (merged.publicUrl === undefined) {
    const h = String(merged.host)
    const host = h === '0.0.0.0' || h === '::' ? '127.0.0.1' : h.includes(':') ? `[${h}]` : h
    const derived = `http://${host}:${String(merged.port)}`
    merged.publicUrl = derived
    if (!URL.canParse(derived))
      throw new ConfigError(
        `invalid configuration:\n  LINKD_HOST / --host: not a host name or IP address: ${h}`,
      )
  }
  if (typeof merged.publicUrl === 'string') merged.publicUrl = merged.publicUrl.replace(/\/+$/, '')
  if (merged.shortDomain === undefined) {
    try {
      merged.shortDomain = new URL(String(merged.publicUrl)).host
    } catch {
      throw new ConfigError(
        `invalid configuration:\n  LINKD_PUBLIC_URL / --public-url: not a URL: ${String(merged.publicUrl)}`,
      )
    }
  }
  if (merged.databaseUrl === undefined)
    merged.databaseUrl = `sqlite:${resolve(String(merged.dataDir), 'linkd.db')}`

  checkDatabaseUrl(String(merged.databaseUrl), 'LINKD_DATABASE_URL / --database-url')
  if (typeof merged.secretKey === 'string' && merged.secretKey !== '') {
    try {
      parseMasterKey(merged.secretKey)
    } catch {
      throw new ConfigError(
        'invalid configuration:\n  LINKD_SECRET_KEY / --secret-key: must be 64 hex characters or base64 of 32 bytes (openssl rand -hex 32)',
      )
    }
  }
  if (merged.cnameTarget === undefined)
    merged.cnameTarget = String(merged.shortDomain)
      .replace(/:\d+$/, '')
      .replace(/^\[|\]$/g, '')
      .toLowerCase()
  check(merged, typed)
  checkTrustProxy(merged.trustProxy, typed.trustProxy)
  checkPublicPort(merged as Config)
  try {
    parseResolvers(String(merged.dnsResolvers))
  } catch (err) {
    throw new ConfigError(
      `invalid configuration:\n  LINKD_DNS_RESOLVERS / --dns-resolvers: ${(err as Error).message}`,
    )
  }
  return Object.freeze(merged) as Config
}

/**
 * The files the daemon reads at start-up (city database, ACME CA) exist and are files: checked
 * before anything is created, so a wrong path does not leave a first start's key unseen.
 */
export function checkSettingFiles(config: Config): void {
  const files = [
    ['LINKD_GEO_CITY_DB / --geo-city-db', config.geoCityDb],
    ['LINKD_ACME_CA_FILE / --acme-ca-file', config.acmeDirectory === 'off' ? undefined : config.acmeCaFile],
  ] as const
  for (const [setting, file] of files) {
    if (file === undefined) continue
    const stat = statSync(file, { throwIfNoEntry: false })
    const problem = !stat ? `no file ${file}` : stat.isFile() ? undefined : `${file} is not a file`
    if (problem) throw new ConfigError(`invalid configuration:\n  ${setting}: ${problem}`)
  }
}

/**
 * A list of trusted proxies must parse as proxy-addr reads it (else linkd fails later, unnamed);
 * a hop count is one a request can take.
 */
function checkTrustProxy(value: unknown, typed: unknown): void {
  if (typeof value === 'number' && value > SETTING_MAX.proxyHops)
    throw new ConfigError(
      `invalid configuration:\n  LINKD_TRUST_PROXY / --trust-proxy: a hop count is ${String(SETTING_MAX.proxyHops)} at most (got ${asTyped(typed ?? value)})`,
    )
  if (typeof value !== 'string') return
  for (const entry of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    try {
      proxyAddr.compile(entry)
    } catch {
      throw new ConfigError(
        `invalid configuration:\n  LINKD_TRUST_PROXY / --trust-proxy: not an IP address or CIDR: ${entry}; use the proxies' addresses (127.0.0.1,10.0.0.0/8), a hop count or true`,
      )
    }
  }
}

/**
 * Visitors and linkctl reach linkd at its public URL (by default http://HOST:PORT): on a port
 * browsers and fetch refuse (the Fetch standard's blocked ports) no short link would open and
 * linkctl could not connect, so linkd does not start. Listening on such a port behind a proxy
 * whose public URL has another port is fine.
 */
function checkPublicPort(config: Config): void {
  const url = new URL(config.publicUrl)
  const port = blockedPort(url)
  if (port === undefined) return
  const setting = port === config.port ? 'LINKD_PORT / --port' : 'LINKD_PUBLIC_URL / --public-url'
  throw new ConfigError(
    `invalid configuration:\n  ${setting}: port ${port} is one browsers and fetch refuse to connect to (a blocked port of the Fetch standard): short links on ${config.publicUrl} would not open and linkctl could not reach linkd; choose another port (behind a proxy, set LINKD_PUBLIC_URL to the address visitors use)`,
  )
}

/**
 * `sqlite:PATH`, a plain path, or a PostgreSQL URL. Any other `scheme://` would otherwise be
 * taken for a file name; the message never repeats the URL, which may hold a password.
 */
export function checkDatabaseUrl(databaseUrl: string, setting: string): void {
  const problem = (text: string) => new ConfigError(`invalid configuration:\n  ${setting}: ${text}`)
  if (/^sqlite:(\/\/)?$/.test(databaseUrl))
    throw problem('sqlite: needs the path of the database file, as in sqlite:/var/lib/linkd/linkd.db')
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(databaseUrl)?.[1]
  if (scheme === undefined) return
  if (!/^postgres(ql)?$/.test(scheme))
    throw problem(
      `unsupported database "${scheme}://"; use sqlite:PATH or postgres://USER@HOST:PORT/DB (PostgreSQL 15 or newer)`,
    )
  try {
    new URL(databaseUrl)
  } catch {
    throw problem('not a valid postgres:// URL (special characters of the password must be percent-encoded)')
  }
}

/** The settings checked by a pattern, in words (the regular expression is never shown). */
const PATTERN_WORDS: Readonly<Record<string, string>> = {
  publicUrl: 'must start with http:// or https://',
  cnameTarget:
    'must be a host name in lower case (letters, digits, dots, hyphens; each dot-separated label 1-63 characters, not starting or ending with a hyphen), without a scheme or path',
  aRecordIp: 'must be an IPv4 address such as 203.0.113.10',
  acmeDirectory: 'must be an http:// or https:// URL, or off',
  acmeEmail: 'must be an e-mail address such as ops@example.com',
}

/**
 * A value as the operator gave it: text as typed; a JSON number in digits (1e+23 is how a double
 * prints 100000000000000000000000, which is what the file says).
 */
function asTyped(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value))
    return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
  return String(value)
}

/**
 * What a setting accepts, in words: a whole number's range and a choice's values, each with the
 * value given (never secret: numbers and names); undefined for the other settings.
 */
function acceptedWords(field: string, value: unknown): string | undefined {
  const schema = (ConfigSchema.properties as Record<string, unknown>)[field] as
    { type?: string; minimum?: number; maximum?: number; enum?: readonly string[] } | undefined
  const got = ` (got ${asTyped(value)})`
  if (schema?.type === 'integer') {
    const { minimum: min, maximum: max } = schema
    const range = max === undefined ? `, ${String(min)} or more` : ` from ${String(min)} to ${String(max)}`
    return `must be a whole number${min === undefined ? '' : range}${got}`
  }
  if (schema?.enum) return `must be one of ${schema.enum.join(', ')}${got}`
  return undefined
}

function check(value: Record<string, unknown>, typed: Record<string, unknown>): void {
  if (validator.Check(value)) return
  const seen = new Set<string>()
  const problems = [...validator.Errors(value)].flatMap((e) => {
    const field =
      e.instancePath.replace(/^\//, '') ||
      String((e.params as { additionalProperty?: string }).additionalProperty ?? '')
    if (seen.has(field)) return []
    seen.add(field)
    const setting = SETTINGS.find((s) => s.key === field)
    const message =
      (e.keyword === 'pattern' && PATTERN_WORDS[field]) ||
      (e.keyword === 'type' && BOOLEAN.has(field as keyof Config) && 'must be true, false, 1 or 0') ||
      (e.keyword === 'minLength' && `must be ${String(e.params.limit)} characters or more`) ||
      acceptedWords(field, field in typed ? typed[field] : value[field]) ||
      e.message
    return [`${setting ? `${setting.env} / ${setting.flag}` : field}: ${message}`]
  })
  throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`)
}

/**
 * With port 0 the daemon picks a free port before it builds the app; the derived defaults (public
 * URL, short domain) follow it, explicit ones are kept.
 */
export function withListenPort(config: Config, port: number): Config {
  if (config.port !== 0) return config
  const derivedUrl = /:0$/.test(config.publicUrl)
  const publicUrl = derivedUrl ? config.publicUrl.replace(/:0$/, `:${port}`) : config.publicUrl
  const derivedHost = config.shortDomain === new URL(config.publicUrl).host
  const shortDomain = derivedHost ? new URL(publicUrl).host : config.shortDomain
  return Object.freeze({ ...config, port, publicUrl, shortDomain })
}

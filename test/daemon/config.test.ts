import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  ConfigError,
  ConfigSchema,
  loadConfig,
  redactDatabaseUrl,
  withListenPort,
} from '../../daemon/config.js'
import { SETTINGS } from '../../daemon/settings.js'
import { packageRoot } from '../../src/version.js'

describe('config', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'linkd-config-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const file = (content: unknown) => {
    const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`)
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
    return path
  }
  const configError = (fn: () => unknown): string => {
    try {
      fn()
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError)
      return (err as Error).message
    }
    throw new Error('expected a ConfigError')
  }

  it('defaults', () => {
    const c = loadConfig({ env: {} })
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      dataDir: resolve('./data'),
      publicUrl: 'http://127.0.0.1:8080',
      shortDomain: '127.0.0.1:8080',
      databaseUrl: `sqlite:${resolve('./data', 'linkd.db')}`,
      logLevel: 'info',
      trustProxy: false,
      defaultPlan: 'enterprise',
      rateLimitPerIp: 3000,
      rateLimitPerOrg: 30000,
      bodyLimitBytes: 1_048_576,
      shutdownTimeoutMs: 10_000,
      jobs: true,
      gamingEnabled: true,
      webhookAllowPrivateNetworks: false,
      webhookAllowLoopback: true,
      webhookConcurrency: 64,
      webhookConcurrencyPerOrg: 16,
    })
    expect(c.secretKey).toBeUndefined()
    expect(Object.isFrozen(c)).toBe(true)
  })

  it('precedence: flags > environment > file > defaults', () => {
    const path = file({ port: 1111, host: '10.0.0.1', logLevel: 'warn', rateLimitPerIp: 10 })
    const env = { LINKD_PORT: '2222', LINKD_HOST: '10.0.0.2' }
    const flags = { port: 3333 }

    const all = loadConfig({ file: path, env, flags })
    expect(all).toMatchObject({
      port: 3333,
      host: '10.0.0.2',
      logLevel: 'warn',
      rateLimitPerIp: 10,
      rateLimitPerOrg: 30000,
    })

    expect(loadConfig({ file: path, env })).toMatchObject({ port: 2222, host: '10.0.0.2', logLevel: 'warn' })
    expect(loadConfig({ file: path, env: {} })).toMatchObject({
      port: 1111,
      host: '10.0.0.1',
      logLevel: 'warn',
    })
    expect(loadConfig({ env: {} })).toMatchObject({ port: 8080, host: '127.0.0.1', logLevel: 'info' })
    // derived defaults follow the winning values
    expect(all.publicUrl).toBe('http://10.0.0.2:3333')
  })

  it('LINKD_CONFIG names the file; an explicit file wins over it', () => {
    const a = file({ port: 4000 })
    const b = file({ port: 5000 })
    expect(loadConfig({ env: { LINKD_CONFIG: a } }).port).toBe(4000)
    expect(loadConfig({ env: { LINKD_CONFIG: a }, file: b }).port).toBe(5000)
  })

  it('every setting can come from its environment variable', () => {
    const c = loadConfig({
      env: {
        LINKD_HOST: '0.0.0.0',
        LINKD_PORT: '9000',
        LINKD_DATA_DIR: dir,
        LINKD_PUBLIC_URL: 'https://links.example.com/',
        LINKD_SHORT_DOMAIN: 'lnk.example',
        LINKD_DATABASE_URL: 'sqlite::memory:',
        LINKD_SECRET_KEY: 'a'.repeat(64),
        LINKD_LOG_LEVEL: 'debug',
        LINKD_LOG_FORMAT: 'json',
        LINKD_TRUST_PROXY: 'true',
        LINKD_DEFAULT_PLAN: 'free',
        LINKD_RATE_LIMIT_PER_IP: '10',
        LINKD_RATE_LIMIT_PER_ORG: '20',
        LINKD_RATE_LIMIT_PER_MEMBER: '25',
        LINKD_RATE_LIMIT_REDIRECTS_PER_IP: '30',
        LINKD_INGEST_RATE_LIMIT_PER_CLIENT: '35',
        LINKD_INGEST_RATE_LIMIT_PER_GAME: '40',
        LINKD_INGEST_QUEUE_MAX: '45',
        LINKD_BODY_LIMIT: '2048',
        LINKD_SHUTDOWN_TIMEOUT_MS: '500',
        LINKD_JOBS: 'false',
        LINKD_WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        LINKD_WEBHOOK_ALLOW_LOOPBACK: 'false',
        LINKD_WEBHOOK_CONCURRENCY: '50',
        LINKD_WEBHOOK_CONCURRENCY_PER_ORG: '60',
        LINKD_DNS_RESOLVERS: '127.0.0.1:5353,9.9.9.9',
        LINKD_CNAME_TARGET: 'cname.lnk.example',
        LINKD_A_RECORD_IP: '203.0.113.7',
        LINKD_ACME_DIRECTORY: 'https://acme.example/dir',
        LINKD_ACME_EMAIL: 'ops@example.com',
        LINKD_ACME_CA_FILE: '/etc/ca.pem',
        LINKD_ACME_PRECHECK: 'false',
        LINKD_HTTPS_PORT: '8443',
        LINKD_SKAN_HELD_MAX: '500',
        LINKD_SKAN_HELD_MAX_BYTES: '65536',
        LINKD_CONNECTIONS_PER_IP: '70',
        LINKD_HEADERS_TIMEOUT_MS: '2500',
        NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED: 'false',
      },
    })
    expect(c).toEqual({
      host: '0.0.0.0',
      port: 9000,
      dataDir: dir,
      publicUrl: 'https://links.example.com',
      shortDomain: 'lnk.example',
      databaseUrl: 'sqlite::memory:',
      secretKey: 'a'.repeat(64),
      logLevel: 'debug',
      logFormat: 'json',
      trustProxy: true,
      defaultPlan: 'free',
      rateLimitPerIp: 10,
      rateLimitPerOrg: 20,
      rateLimitPerMember: 25,
      rateLimitRedirectsPerIp: 30,
      ingestRateLimitPerClient: 35,
      ingestRateLimitPerGame: 40,
      ingestQueueMax: 45,
      bodyLimitBytes: 2048,
      shutdownTimeoutMs: 500,
      jobs: false,
      gamingEnabled: false,
      webhookAllowPrivateNetworks: true,
      webhookAllowLoopback: false,
      webhookConcurrency: 50,
      webhookConcurrencyPerOrg: 60,
      dnsResolvers: '127.0.0.1:5353,9.9.9.9',
      cnameTarget: 'cname.lnk.example',
      aRecordIp: '203.0.113.7',
      acmeDirectory: 'https://acme.example/dir',
      acmeEmail: 'ops@example.com',
      acmeCaFile: '/etc/ca.pem',
      acmePrecheck: false,
      httpsPort: 8443,
      skanHeldMax: 500,
      skanHeldMaxBytes: 65536,
      connectionsPerIp: 70,
      headersTimeoutMs: 2500,
    })
  })

  it('custom domain settings: defaults, derived CNAME target, and bad resolver lists refused', () => {
    const c = loadConfig({ env: { LINKD_SHORT_DOMAIN: 'Go.Example.com:8080' } })
    expect(c).toMatchObject({
      dnsResolvers: '1.1.1.1,8.8.8.8,9.9.9.9',
      cnameTarget: 'go.example.com',
      acmeDirectory: 'https://acme-v02.api.letsencrypt.org/directory',
      acmePrecheck: true,
    })
    expect(c.httpsPort).toBeUndefined()
    expect(c.aRecordIp).toBeUndefined()
    expect(() => loadConfig({ env: { LINKD_DNS_RESOLVERS: 'dns.google' } })).toThrow(/LINKD_DNS_RESOLVERS/)
    expect(() => loadConfig({ env: { LINKD_A_RECORD_IP: '999.1.1.1' } })).toThrow(/LINKD_A_RECORD_IP/)
    expect(loadConfig({ env: { LINKD_ACME_DIRECTORY: 'off' } }).acmeDirectory).toBe('off')
  })

  it('SETTINGS covers the schema, one variable and flag each', () => {
    expect(SETTINGS.map((s) => s.key).sort()).toEqual(Object.keys(ConfigSchema.properties).sort())
    for (const s of SETTINGS) {
      // One exception, named by the contract: the gaming feature flag.
      expect(s.env).toMatch(/^(LINKD_[A-Z_]+|NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED)$/)
      expect(s.flag).toMatch(/^--[a-z-]+$/)
    }
    expect(new Set(SETTINGS.map((s) => s.env)).size).toBe(SETTINGS.length)
  })

  it('coerces booleans, hop counts and proxy lists; empty variables are ignored', () => {
    expect(loadConfig({ env: { LINKD_JOBS: '0' } }).jobs).toBe(false)
    expect(loadConfig({ env: { LINKD_JOBS: '1' } }).jobs).toBe(true)
    const gaming = (v: string) =>
      loadConfig({ env: { NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED: v } }).gamingEnabled
    expect([gaming('false'), gaming('0'), gaming('true'), gaming('1')]).toEqual([false, false, true, true])
    expect(loadConfig({ env: {}, flags: { gamingEnabled: 'false' } }).gamingEnabled).toBe(false)
    expect(loadConfig({ env: { LINKD_TRUST_PROXY: 'false' } }).trustProxy).toBe(false)
    expect(loadConfig({ env: { LINKD_TRUST_PROXY: '2' } }).trustProxy).toBe(2)
    expect(loadConfig({ env: { LINKD_TRUST_PROXY: '10.0.0.0/8,127.0.0.1' } }).trustProxy).toBe(
      '10.0.0.0/8,127.0.0.1',
    )
    expect(loadConfig({ env: { LINKD_PORT: '' } }).port).toBe(8080)
    expect(loadConfig({ env: {}, flags: { port: '7000' } }).port).toBe(7000)
    expect(loadConfig({ env: {}, flags: { port: undefined } }).port).toBe(8080)
  })

  it('derives the public URL and short domain from host and port', () => {
    expect(loadConfig({ env: { LINKD_HOST: '0.0.0.0', LINKD_PORT: '80' } }).publicUrl).toBe(
      'http://127.0.0.1:80',
    )
    expect(loadConfig({ env: { LINKD_HOST: '::1' } }).publicUrl).toBe('http://[::1]:8080')
    expect(loadConfig({ env: { LINKD_PUBLIC_URL: 'https://go.example.com' } }).shortDomain).toBe(
      'go.example.com',
    )
    expect(loadConfig({ env: { LINKD_DATA_DIR: dir } }).databaseUrl).toBe(`sqlite:${join(dir, 'linkd.db')}`)
  })

  it('invalid values are a ConfigError naming the environment variable and flag', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ LINKD_PORT: 'abc' }, 'LINKD_PORT / --port'],
      [{ LINKD_PORT: '70000' }, 'LINKD_PORT / --port'],
      [{ LINKD_PORT: '-1' }, 'LINKD_PORT / --port'],
      [{ LINKD_RATE_LIMIT_PER_IP: '0' }, 'LINKD_RATE_LIMIT_PER_IP'],
      [{ LINKD_RATE_LIMIT_PER_ORG: 'lots' }, 'LINKD_RATE_LIMIT_PER_ORG'],
      [{ LINKD_BODY_LIMIT: '12' }, 'LINKD_BODY_LIMIT'],
      [{ LINKD_DEFAULT_PLAN: 'gold' }, 'LINKD_DEFAULT_PLAN'],
      [{ LINKD_LOG_LEVEL: 'loud' }, 'LINKD_LOG_LEVEL'],
      [{ LINKD_JOBS: 'maybe' }, 'LINKD_JOBS'],
      [
        { NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED: 'off' },
        'NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED / --gaming-intelligence-enabled',
      ],
      [{ LINKD_PUBLIC_URL: 'ftp://example.com' }, 'LINKD_PUBLIC_URL'],
      [{ LINKD_PUBLIC_URL: 'http://' }, 'LINKD_PUBLIC_URL'],
      [{ LINKD_SHUTDOWN_TIMEOUT_MS: '5' }, 'LINKD_SHUTDOWN_TIMEOUT_MS'],
    ]
    for (const [env, name] of cases)
      expect(
        configError(() => loadConfig({ env })),
        JSON.stringify(env),
      ).toContain(name)
    // booleans say what they accept
    expect(
      configError(() => loadConfig({ env: { NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED: 'off' } })),
    ).toContain(
      'NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED / --gaming-intelligence-enabled: must be true, false, 1 or 0',
    )
    // flags are reported the same way
    expect(configError(() => loadConfig({ env: {}, flags: { port: 'x' } }))).toContain('--port')
    // several problems are all reported
    const both = configError(() => loadConfig({ env: { LINKD_PORT: 'x', LINKD_LOG_LEVEL: 'loud' } }))
    expect(both).toContain('LINKD_PORT')
    expect(both).toContain('LINKD_LOG_LEVEL')
  })

  it('a public URL on a port browsers and fetch refuse (the Fetch standard) is refused; listening on one behind a proxy is not', () => {
    const port = configError(() => loadConfig({ env: { LINKD_PORT: '6000' } }))
    expect(port).toContain(
      'LINKD_PORT / --port: port 6000 is one browsers and fetch refuse to connect to (a blocked port of the Fetch standard): short links on http://127.0.0.1:6000 would not open',
    )
    expect(
      configError(() => loadConfig({ env: { LINKD_PUBLIC_URL: 'http://go.example.com:10080' } })),
    ).toMatch(
      /^invalid configuration:\n {2}LINKD_PUBLIC_URL \/ --public-url: port 10080 is one browsers and fetch refuse/,
    )
    // Behind a proxy, visitors and linkctl never see the port linkd listens on.
    expect(loadConfig({ env: { LINKD_PORT: '6000', LINKD_PUBLIC_URL: 'https://go.example.com' } }).port).toBe(
      6000,
    )
    expect(loadConfig({ env: { LINKD_PORT: '6001' } }).publicUrl).toBe('http://127.0.0.1:6001')
  })

  it('a wrong number or choice says what is accepted, in words', () => {
    const problem = (env: Record<string, string>) => configError(() => loadConfig({ env })).split('\n')[1]
    expect(problem({ LINKD_RATE_LIMIT_PER_IP: '-5' })).toBe(
      '  LINKD_RATE_LIMIT_PER_IP / --rate-limit-per-ip: must be a whole number from 1 to 10000000 (got -5)',
    )
    expect(problem({ LINKD_PORT: 'eighty' })).toBe(
      '  LINKD_PORT / --port: must be a whole number from 0 to 65535 (got eighty)',
    )
    expect(problem({ LINKD_HTTPS_PORT: '70000' })).toBe(
      '  LINKD_HTTPS_PORT / --https-port: must be a whole number from 0 to 65535 (got 70000)',
    )
    expect(problem({ LINKD_INGEST_QUEUE_MAX: '1e12' })).toBe(
      '  LINKD_INGEST_QUEUE_MAX / --ingest-queue-max: must be a whole number from 1 to 1000000 (got 1e12)',
    )
    expect(problem({ LINKD_LOG_LEVEL: 'loud' })).toBe(
      '  LINKD_LOG_LEVEL / --log-level: must be one of fatal, error, warn, info, debug, trace, silent (got loud)',
    )
    expect(problem({ LINKD_LOG_FORMAT: 'xml' })).toBe(
      '  LINKD_LOG_FORMAT / --log-format: must be one of auto, json, pretty (got xml)',
    )
    expect(problem({ LINKD_METRICS_TOKEN: 'short' })).toBe(
      '  LINKD_METRICS_TOKEN / --metrics-token: must be 16 characters or more',
    )
  })

  it('every count and size has a maximum: accepted at it, refused one past, naming the setting', () => {
    const bounds: Array<[string, keyof ReturnType<typeof loadConfig>, number]> = [
      ['LINKD_RATE_LIMIT_PER_IP', 'rateLimitPerIp', 10_000_000],
      ['LINKD_RATE_LIMIT_PER_ORG', 'rateLimitPerOrg', 10_000_000],
      ['LINKD_RATE_LIMIT_PER_MEMBER', 'rateLimitPerMember', 10_000_000],
      ['LINKD_RATE_LIMIT_REDIRECTS_PER_IP', 'rateLimitRedirectsPerIp', 10_000_000],
      ['LINKD_INGEST_RATE_LIMIT_PER_CLIENT', 'ingestRateLimitPerClient', 10_000_000],
      ['LINKD_INGEST_RATE_LIMIT_PER_GAME', 'ingestRateLimitPerGame', 10_000_000],
      ['LINKD_INGEST_QUEUE_MAX', 'ingestQueueMax', 1_000_000],
      ['LINKD_BODY_LIMIT', 'bodyLimitBytes', 104_857_600],
      ['LINKD_SKAN_HELD_MAX', 'skanHeldMax', 1_000_000],
      ['LINKD_SKAN_HELD_MAX_BYTES', 'skanHeldMaxBytes', 1_073_741_824],
      ['LINKD_CONNECTIONS_PER_IP', 'connectionsPerIp', 65_535],
    ]
    for (const [variable, key, max] of bounds) {
      expect(loadConfig({ env: { [variable]: String(max) } })[key], variable).toBe(max)
      expect(configError(() => loadConfig({ env: { [variable]: String(max + 1) } }))).toMatch(
        new RegExp(
          `^invalid configuration:\\n {2}${variable} / --[a-z-]+: must be a whole number from \\d+ to ${max} \\(got ${max + 1}\\)$`,
        ),
      )
    }
    // A number past what doubles hold exactly is refused too, quoted in the digits typed (not 1e+23).
    const huge = '100000000000000000000000'
    const hugeProblem =
      'invalid configuration:\n  LINKD_RATE_LIMIT_PER_IP / --rate-limit-per-ip: must be a whole number from 1 to 10000000 (got 100000000000000000000000)'
    expect(configError(() => loadConfig({ env: { LINKD_RATE_LIMIT_PER_IP: huge } }))).toBe(hugeProblem)
    expect(configError(() => loadConfig({ env: {}, flags: { rateLimitPerIp: huge } }))).toBe(hugeProblem)
    const typed = file(`{"rateLimitPerIp": ${huge}}`)
    expect(configError(() => loadConfig({ env: {}, file: typed }))).toBe(hugeProblem)
    expect(configError(() => loadConfig({ env: { LINKD_BODY_LIMIT: '000099999999999' } }))).toMatch(
      /LINKD_BODY_LIMIT \/ --body-limit-bytes: must be a whole number from 1024 to 104857600 \(got 000099999999999\)$/,
    )
    expect(configError(() => loadConfig({ env: { LINKD_TRUST_PROXY: huge } }))).toBe(
      `invalid configuration:\n  LINKD_TRUST_PROXY / --trust-proxy: a hop count is 255 at most (got ${huge})`,
    )
    expect(loadConfig({ env: { LINKD_TRUST_PROXY: '255' } }).trustProxy).toBe(255)
    expect(configError(() => loadConfig({ env: { LINKD_TRUST_PROXY: '256' } }))).toBe(
      'invalid configuration:\n  LINKD_TRUST_PROXY / --trust-proxy: a hop count is 255 at most (got 256)',
    )
  })

  it('a time in ms beyond what timers hold is refused (it fired at once: a shutdown "timed out" before flushing)', () => {
    for (const variable of ['LINKD_SHUTDOWN_TIMEOUT_MS', 'LINKD_HEADERS_TIMEOUT_MS'])
      expect(configError(() => loadConfig({ env: { [variable]: '3000000000' } }))).toMatch(
        new RegExp(
          `^invalid configuration:\\n {2}${variable} / --[a-z-]+: must be a whole number from 100 to 2147483647 \\(got 3000000000\\)$`,
        ),
      )
    expect(loadConfig({ env: { LINKD_SHUTDOWN_TIMEOUT_MS: '2147483647' } }).shutdownTimeoutMs).toBe(
      2147483647,
    )
  })

  it('a listen address that makes no URL is reported as LINKD_HOST, not as the public URL derived from it', () => {
    expect(configError(() => loadConfig({ env: { LINKD_HOST: '999.1.1.1' } }))).toBe(
      'invalid configuration:\n  LINKD_HOST / --host: not a host name or IP address: 999.1.1.1',
    )
  })

  it('a trusted proxy that is not an address, CIDR, hop count or true is refused naming LINKD_TRUST_PROXY', () => {
    for (const value of ['foo', '-3', '10.0.0.0/8,nonsense'])
      expect(
        configError(() => loadConfig({ env: { LINKD_TRUST_PROXY: value } })),
        value,
      ).toMatch(
        /^invalid configuration:\n {2}LINKD_TRUST_PROXY \/ --trust-proxy: not an IP address or CIDR: (foo|-3|nonsense); use the proxies' addresses \(127\.0\.0\.1,10\.0\.0\.0\/8\), a hop count or true$/,
      )
    expect(loadConfig({ env: { LINKD_TRUST_PROXY: 'loopback, 10.0.0.0/8' } }).trustProxy).toBe(
      'loopback, 10.0.0.0/8',
    )
  })

  it('a master key that is not 32 bytes is refused at start-up, naming LINKD_SECRET_KEY, never echoing it', () => {
    const message = configError(() => loadConfig({ env: { LINKD_SECRET_KEY: 'not-the-key-0123' } }))
    expect(message).toBe(
      'invalid configuration:\n  LINKD_SECRET_KEY / --secret-key: must be 64 hex characters or base64 of 32 bytes (openssl rand -hex 32)',
    )
    const key = 'ab'.repeat(32)
    expect(loadConfig({ env: { LINKD_SECRET_KEY: key } }).secretKey).toBe(key)
  })

  it('settings checked by a pattern are explained in words, never as the expression', () => {
    const message = configError(() =>
      loadConfig({
        env: {
          LINKD_PUBLIC_URL: 'ftp://example.com',
          LINKD_CNAME_TARGET: 'Short.Example/x',
          LINKD_A_RECORD_IP: '300.1.1.1',
          LINKD_ACME_DIRECTORY: 'pebble',
        },
      }),
    )
    expect(message).toContain('LINKD_PUBLIC_URL / --public-url: must start with http:// or https://')
    expect(message).toContain('LINKD_CNAME_TARGET / --cname-target: must be a host name in lower case')
    expect(message).toContain('LINKD_A_RECORD_IP / --a-record-ip: must be an IPv4 address')
    expect(message).toContain(
      'LINKD_ACME_DIRECTORY / --acme-directory: must be an http:// or https:// URL, or off',
    )
    expect(message).not.toMatch(/pattern|\^|\$"|\\d/)
    // The CA refuses an account whose contact is not an address: said at start-up, not at the first order.
    expect(configError(() => loadConfig({ env: { LINKD_ACME_EMAIL: 'ops.example.com' } }))).toBe(
      'invalid configuration:\n  LINKD_ACME_EMAIL / --acme-email: must be an e-mail address such as ops@example.com',
    )
    expect(loadConfig({ env: { LINKD_ACME_EMAIL: 'ops@example.com' } }).acmeEmail).toBe('ops@example.com')
  })

  it('a CNAME target whose labels are not a host name (a hyphen at either end, empty) is refused in words', () => {
    for (const value of [
      '-x.example.',
      'x-.example',
      'go.-x.example',
      'a..example',
      `${'a'.repeat(64)}.example`,
    ])
      expect(
        configError(() => loadConfig({ env: { LINKD_CNAME_TARGET: value } })),
        value,
      ).toBe(
        'invalid configuration:\n  LINKD_CNAME_TARGET / --cname-target: must be a host name in lower case (letters, digits, dots, hyphens; each dot-separated label 1-63 characters, not starting or ending with a hyphen), without a scheme or path',
      )
    for (const value of ['x.example.', 'go-1.lnk.example', 'localhost', `${'a'.repeat(63)}.example`])
      expect(loadConfig({ env: { LINKD_CNAME_TARGET: value } }).cnameTarget).toBe(value)
    // Derived from the listen address when unset, an IP address included.
    expect(loadConfig({ env: { LINKD_HOST: '::1' } }).cnameTarget).toBe('::1')
    expect(loadConfig({ env: {} }).cnameTarget).toBe('127.0.0.1')
  })

  it('a config file with an unknown key, bad JSON or not an object is refused', () => {
    const unknown = file({ port: 8081, colour: 'blue' })
    expect(configError(() => loadConfig({ file: unknown, env: {} }))).toMatch(/unknown setting "colour"/)
    // environment variable names are not file keys
    expect(configError(() => loadConfig({ file: file({ LINKD_PORT: 1 }), env: {} }))).toMatch(
      /unknown setting "LINKD_PORT"/,
    )
    expect(configError(() => loadConfig({ file: file('{ "port": '), env: {} }))).toMatch(
      /cannot read config file/,
    )
    expect(configError(() => loadConfig({ file: file([1, 2]), env: {} }))).toMatch(/must hold a JSON object/)
    expect(configError(() => loadConfig({ file: file('null'), env: {} }))).toMatch(/must hold a JSON object/)
    expect(configError(() => loadConfig({ file: join(dir, 'missing.json'), env: {} }))).toMatch(
      /cannot read config file/,
    )
    // invalid values in the file are named too
    expect(configError(() => loadConfig({ file: file({ port: 'eighty' }), env: {} }))).toContain(
      'LINKD_PORT / --port',
    )
  })

  it('withListenPort follows a port picked for port 0 unless the public URL was set', () => {
    const c = loadConfig({ env: { LINKD_PORT: '0' } })
    expect(c.publicUrl).toBe('http://127.0.0.1:0')
    const after = withListenPort(c, 43210)
    expect(after).toMatchObject({
      port: 43210,
      publicUrl: 'http://127.0.0.1:43210',
      shortDomain: '127.0.0.1:43210',
    })
    expect(Object.isFrozen(after)).toBe(true)
    const explicit = loadConfig({ env: { LINKD_PORT: '0', LINKD_PUBLIC_URL: 'https://sho.rt' } })
    expect(withListenPort(explicit, 43210)).toMatchObject({
      port: 43210,
      publicUrl: 'https://sho.rt',
      shortDomain: 'sho.rt',
    })
    const fixed = loadConfig({ env: {} })
    expect(withListenPort(fixed, 43210)).toBe(fixed)
  })
})

describe('docs/operations.md', () => {
  it('documents every setting with its environment variable, flag and default', () => {
    const readme = readFileSync(join(packageRoot(), 'docs/operations.md'), 'utf8')
    for (const s of SETTINGS)
      expect(readme, s.env).toMatch(new RegExp(`^- \`${s.env}\`, \`${s.flag}\` \\(.+\\): `, 'm'))
  })
})

describe('LINKD_DATABASE_URL', () => {
  const message = (databaseUrl: string): string => {
    try {
      loadConfig({ env: { LINKD_DATABASE_URL: databaseUrl } })
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError)
      return (err as Error).message
    }
    throw new Error('expected a ConfigError')
  }

  it('accepts sqlite: URLs, plain paths and postgres:// or postgresql:// URLs as given', () => {
    for (const url of [
      'sqlite:/var/lib/linkd/linkd.db',
      'sqlite::memory:',
      '/var/lib/linkd/linkd.db',
      'postgres://linkd:secret@db.internal:5432/linkd?sslmode=require',
      'postgresql://linkd@db.internal/linkd',
    ])
      expect(loadConfig({ env: { LINKD_DATABASE_URL: url } }).databaseUrl).toBe(url)
  })

  it('refuses another scheme (instead of creating a SQLite file named after it), naming the setting', () => {
    expect(message('mysql://linkd:secret@db/linkd')).toMatch(
      /LINKD_DATABASE_URL \/ --database-url: unsupported database "mysql:\/\/"; use sqlite:PATH or postgres:\/\/USER@HOST:PORT\/DB/,
    )
    expect(message('mysql://linkd:secret@db/linkd')).not.toContain('secret')
  })

  it('refuses sqlite: without a path (it would be a database in memory, lost at every restart)', () => {
    for (const url of ['sqlite:', 'sqlite://'])
      expect(message(url)).toBe(
        'invalid configuration:\n  LINKD_DATABASE_URL / --database-url: sqlite: needs the path of the database file, as in sqlite:/var/lib/linkd/linkd.db',
      )
  })

  it('refuses a PostgreSQL URL that does not parse, without echoing it (it may hold a password)', () => {
    const m = message('postgres://linkd:se cret@db:port/linkd')
    expect(m).toMatch(/LINKD_DATABASE_URL \/ --database-url: not a valid postgres:\/\/ URL/)
    expect(m).not.toContain('cret')
  })

  it('prints a PostgreSQL URL without its password (user part or parameter), a SQLite URL as it is', () => {
    expect(redactDatabaseUrl('postgres://linkd:s%40cret@db.internal:5432/linkd?sslmode=require')).toBe(
      'postgres://linkd@db.internal:5432/linkd?sslmode=require',
    )
    expect(redactDatabaseUrl('postgresql://db.internal/linkd?user=linkd&password=s3cret')).toBe(
      'postgresql://db.internal/linkd?user=linkd',
    )
    expect(redactDatabaseUrl('sqlite:/var/lib/linkd/linkd.db')).toBe('sqlite:/var/lib/linkd/linkd.db')
  })
})

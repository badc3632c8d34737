import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXIT_CODE_TABLE, unstatedDetails } from '../../src/session/exit-codes.js'
import { cli, errorReply, OWNER_KEY, sampleKey, stubServer } from '../support/cli.js'

describe('exit codes for daemon answers', () => {
  let stub: Awaited<ReturnType<typeof stubServer>>
  beforeAll(async () => {
    stub = await stubServer({
      'GET /api/keys/key_401': () => errorReply(401, 'Unauthorized', 'Invalid API key'),
      'GET /api/keys/key_403': () => errorReply(403, 'Forbidden', 'Missing scope keys:read'),
      'GET /api/keys/key_404': () => errorReply(404, 'NotFound', 'API key not found'),
      // linkd's answer outside /api/: the path taken for a short link.
      'GET /links': () => errorReply(404, 'NotFound', 'short link /links not found', '/links'),
      'POST /api/keys/key_409/activate': () =>
        errorReply(409, 'Conflict', 'A revoked key cannot be activated'),
      'GET /api/keys/key_429': () => ({
        ...errorReply(429, 'RateLimitExceeded', 'Rate limit exceeded'),
        headers: { 'retry-after': '42' },
      }),
      'POST /api/keys': () =>
        errorReply(400, 'ValidationError', 'Invalid request body', '/api/keys', [
          { field: 'name', message: 'must not be blank' },
          { field: 'requestLimit', message: 'must be >= 1' },
        ]),
      'GET /api/keys/key_500': () => errorReply(500, 'InternalError', 'Internal server error'),
      'GET /api/keys/key_ok': () => ({ status: 200, body: sampleKey({ id: 'key_ok' }) }),
    })
  })
  afterAll(() => stub.close())
  const env = () => ({ LINKCTL_URL: stub.url, LINKCTL_API_KEY: OWNER_KEY })

  it.each([
    [['keys', 'get', 'key_ok'], 0, ''],
    [
      ['keys', 'get', 'key_401'],
      4,
      'error: Invalid API key (HTTP 401): the key from LINKCTL_API_KEY was refused; run `linkctl login` with a valid key\n',
    ],
    [['keys', 'get', 'key_403'], 4, 'error: Missing scope keys:read (HTTP 403)\n'],
    [['keys', 'get', 'key_404'], 5, 'error: API key not found (HTTP 404)\n'],
    [['keys', 'activate', 'key_409'], 6, 'error: A revoked key cannot be activated (HTTP 409)\n'],
    [['keys', 'get', 'key_429'], 7, 'error: Rate limit exceeded (HTTP 429) (retry after 42s)\n'],
    [['keys', 'get', 'key_500'], 1, 'error: Internal server error (HTTP 500)\n'],
  ])('%j exits %i', async (argv, code, stderr) => {
    const r = await cli(argv, { env: env() })
    expect(r.code).toBe(code)
    expect(r.stderr).toBe(stderr)
  })

  it('validation errors list their details, one per line, and exit 1', async () => {
    const r = await cli(['keys', 'create', '--name', 'x'], { env: env() })
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      'error: Invalid request body (HTTP 400)\n  name: must not be blank\n  --request-limit: must be >= 1\n',
    )
    expect(r.stdout).toBe('')
  })

  it('api prints the error body on stdout and maps the status', async () => {
    const r = await cli(['api', 'GET', '/api/keys/key_404'], { env: env() })
    expect(r.code).toBe(5)
    expect(JSON.parse(r.stdout)).toMatchObject({ error: 'NotFound', statusCode: 404 })
    expect(r.stderr).toBe('error: API key not found (HTTP 404)\n')
  })

  it('api with a path outside /api/ says where the API is (still exit 5, the body on stdout)', async () => {
    const r = await cli(['api', 'GET', 'links'], { env: env() })
    expect(r.code).toBe(5)
    expect(JSON.parse(r.stdout)).toMatchObject({ error: 'NotFound', path: '/links' })
    expect(r.stderr).toBe(
      "error: short link /links not found: linkd's API paths begin with /api/, as in /api/use/links (HTTP 404)\n",
    )
  })
})

describe('usage errors exit 2', () => {
  const env = { LINKCTL_URL: 'http://127.0.0.1:2', LINKCTL_API_KEY: OWNER_KEY }
  it.each([
    [['keys', 'list', '--bogus'], /error: unknown option '--bogus'/],
    // An argument written as an option (other game commands take --game): said how to give it.
    [
      ['analytics', 'funnel', '--game', 'g', '--steps', 'a,b'],
      /^error: unknown option '--game': the game is this command's first argument: linkctl analytics funnel \[options\] <game>\n/,
    ],
    // --url is linkd's address: a receiver's URL given with it is missing as the argument.
    [
      ['webhooks', 'create', '--name', 'rx', '--url', 'https://rx.example/hook', '--event', 'link.created'],
      /^error: missing required argument 'url' \(--url is linkd's address; give the url as this command's first argument: linkctl webhooks create \[options\] <url>\)\n/,
    ],
    [['fraud', 'events', '--game=g'], /unknown option '--game=g': the game is this command's first argument/],
    [['keys', 'get'], /error: missing required argument 'id'/],
    [['keys', 'list', '--limit', '0'], /error: option '--limit <n>' argument '0' is invalid/],
    [['keys', 'list', '--page', '0'], /expected an integer from 1/],
    [['keys', 'create', '--preset', 'full'], /required option '--name <name>' not specified/],
    [
      ['keys', 'create', '--name', 'x', '--scope', 'links:fly'],
      /'--scope <scope>' argument 'links:fly' is invalid/,
    ],
    [['keys', 'create', '--name', 'x', '--expires-at', 'tomorrow'], /expected an ISO date/],
    [
      ['keys', 'create', '--name', 'x', '--preset', 'full', '--scope', 'links:read'],
      /either --preset or --permissions/,
    ],
    [['keys', 'update', 'key_1'], /nothing to update/],
    [['keys', 'delete', 'key_1'], /add --yes/],
    [['links', 'delete', 'abc'], /refusing to delete link abc without confirmation: add --yes/],
    [['domains', 'delete', 'dom_1'], /refusing to delete domain dom_1 without confirmation: add --yes/],
    [['webhooks', 'delete', 'wh_1'], /refusing to delete wh_1 without confirmation: add --yes/],
    [['login'], /no API key: pass --api-key/],
    [['nope'], /error: unknown command 'nope'/],
    [['keys'], /Usage: linkctl keys/],
    [['help', 'nope'], /unknown command or help topic/],
    [['api', 'FETCH', '/x'], /unknown method "FETCH"/],
    [
      ['--url', 'localhost:8080', 'links', 'list'],
      /invalid --url "localhost:8080": expected http:\/\/host:port or https:\/\/host; did you mean http:\/\/localhost:8080\?/,
    ],
    [
      ['api', 'POST', '/api/use/links', '-d', '{"destinationUrl":"https://x.example"}'],
      /linkctl api takes no -d: send the JSON body with --input <file> \(- for stdin\), or fields with -F key=value/,
    ],
    [['completion', 'tcsh'], /value 'tcsh' is invalid for argument 'shell'/],
  ])('%j', async (argv, message) => {
    const r = await cli(argv, { env: argv[0] === 'login' ? { LINKCTL_URL: env.LINKCTL_URL } : env })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('other exits', () => {
  it('an unreachable daemon is a plain error (1) without a stack trace', async () => {
    const r = await cli(['keys', 'list'], {
      env: { LINKCTL_URL: 'http://127.0.0.1:2', LINKCTL_API_KEY: OWNER_KEY },
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error: cannot reach linkd at http:\/\/127\.0\.0\.1:2/)
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('a port fetch refuses (the Fetch standard blocks it) is a usage error (2) naming the port', async () => {
    const flag = await cli(['--url', 'http://127.0.0.1:1', 'status'], { env: { LINKCTL_API_KEY: OWNER_KEY } })
    expect(flag.code).toBe(2)
    expect(flag.stderr).toBe(
      'error: cannot reach linkd at http://127.0.0.1:1 (--url): port 1 is one browsers and fetch refuse to connect to (a blocked port of the Fetch standard); run linkd on another port\n',
    )
    const env = await cli(['keys', 'list'], {
      env: { LINKCTL_URL: 'http://127.0.0.1:6000', LINKCTL_API_KEY: OWNER_KEY },
    })
    expect(env.code).toBe(2)
    expect(env.stderr).toMatch(
      /^error: cannot reach linkd at http:\/\/127\.0\.0\.1:6000 \(LINKCTL_URL\): port 6000 is one browsers and fetch refuse/,
    )
    expect(env.stderr).not.toContain('bad port')
  })

  it('no key configured is an auth failure (4) that says how to log in', async () => {
    const r = await cli(['keys', 'list'], {
      env: { LINKCTL_URL: 'http://127.0.0.1:2', LINKCTL_CONFIG_DIR: '/nonexistent/x' },
    })
    expect(r.code).toBe(4)
    expect(r.stderr).toMatch(/linkctl login/)
  })

  it('help exit-codes prints the table; --help and --version exit 0', async () => {
    const r = await cli(['help', 'exit-codes'])
    expect(r.code).toBe(0)
    const rows = r.stdout.split('\n').map((line) => line.trim().replace(/\s+/, ' '))
    for (const { code, meaning } of EXIT_CODE_TABLE) expect(rows).toContain(`${code} ${meaning}`)
    expect((await cli(['--help'])).code).toBe(0)
    expect((await cli(['keys', 'create', '--help'])).stdout).toMatch(/--request-limit <n>/)
    expect((await cli(['help', 'keys', 'list'])).stdout).toMatch(/Usage: linkctl keys list/)
    const v = await cli(['--version'])
    expect([v.code, v.stdout]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+\n$/)])
  })
})

describe('validation details under an error message', () => {
  const d = (field: string, message: string) => ({ field, message })
  it('a lone detail the message states in its own words is not repeated', () => {
    const conflict = 'short code "spring" is already in use on this domain'
    expect(unstatedDetails(conflict, [d('shortCode', 'already in use on this domain')])).toEqual([])
    const game = [d('gameId', 'not a game of this organization')]
    expect(unstatedDetails('game nope not found in this organization', game)).toEqual(game)
  })
  it('with several, each is matched with its field: the same words about another field stay', () => {
    const details = [d('rules.0.conditions', 'is required'), d('rules.0.destinationUrl', 'is required')]
    expect(unstatedDetails('rules.0.conditions is required (and 1 more)', details)).toEqual([details[1]])
    expect(unstatedDetails('Invalid request body', details)).toEqual(details)
  })
  it('a message naming one field and all its problems repeats none of them', () => {
    const url = [d('url', 'HTTPS is required'), d('url', '10.0.0.1 is in the private range')]
    expect(unstatedDetails('url: HTTPS is required; 10.0.0.1 is in the private range', url)).toEqual([])
    expect(unstatedDetails('url: HTTPS is required', url)).toEqual([url[1]])
  })
})

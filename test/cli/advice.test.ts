/**
 * linkctl's advice pointing the right way: a refused SDK key named as such, required options
 * marked in --help with one spelling of the missing-option error, errors as JSON with --json,
 * and `linkctl --help` describing what `linkctl tui` shows. A stub daemon answers on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, errorReply, OWNER_KEY, stubServer } from '../support/cli.js'

let stub: Awaited<ReturnType<typeof stubServer>>
beforeAll(async () => {
  stub = await stubServer({
    'POST /api/v1/gaming/events': () => errorReply(401, 'Unauthorized', 'Invalid SDK key'),
    'GET /api/keys': () => errorReply(401, 'Unauthorized', 'Invalid API key'),
    'POST /api/use/links': () =>
      errorReply(
        400,
        'ValidationError',
        'destinationUrl must start with http:// or https://',
        '/api/use/links',
        [{ field: 'destinationUrl', message: 'must start with http:// or https://' }],
      ),
  })
})
afterAll(() => stub.close())

const env = (over: Record<string, string> = {}) => ({
  LINKCTL_URL: stub.url,
  LINKCTL_API_KEY: OWNER_KEY,
  ...over,
})
const send = ['events', 'send', '-', '--game', 'g1', '--org', 'org_1']
const event = '{"event_type":"session_start","player_id":"p1"}'

describe('a refused SDK key', () => {
  it('is reported as the SDK key being refused, from the flag or the environment, with the fix', async () => {
    const flag = await cli([...send, '--sdk-key', 'sdk_bad'], { env: env(), stdin: event })
    expect(flag.code).toBe(4)
    // The organization was given (--org), so it may be the wrong one as well.
    expect(flag.stderr).toBe(
      'error: Invalid SDK key (HTTP 401): the SDK key from --sdk-key or the organization id from --org ' +
        "was refused; use the game's organization id and current SDK key " +
        '(`linkctl games get g1` shows its preview; `linkctl games regenerate-key g1` makes a new one)\n',
    )
    expect(flag.stderr).not.toContain('API key')
    const fromEnv = await cli(send, { env: env({ LINKCTL_SDK_KEY: 'sdk_bad' }), stdin: event })
    expect(fromEnv.code).toBe(4)
    expect(fromEnv.stderr).toContain('the SDK key from LINKCTL_SDK_KEY or the organization id from --org')
  })
})

describe('required options', () => {
  it('--help marks them', async () => {
    const help = await cli(['analytics', 'export', '--help'])
    expect(help.stdout).toMatch(/--type <type> [^]*\(required\)\n {2}--format/)
    const gdpr = await cli(['gdpr', 'delete', '--help'])
    expect(gdpr.stdout).toMatch(/--game <id> +game id \(required\)/)
    const events = await cli(['events', 'send', '--help'])
    expect(events.stdout).toMatch(/--sdk-key <key> +the game SDK key \(required, or env LINKCTL_SDK_KEY\)/)
  })

  it("one spelling of a missing one, commander's and linkctl's own", async () => {
    const commander = await cli(['analytics', 'export', 'g1'], { env: env() })
    expect(commander).toMatchObject({
      code: 2,
      stderr: "error: required option '--type <type>' not specified\n",
    })
    const own = await cli(['events', 'send', '-', '--game', 'g1'], { env: env(), stdin: event })
    expect(own).toMatchObject({
      code: 2,
      stderr: "error: required option '--sdk-key <key>' not specified (or set LINKCTL_SDK_KEY)\n",
    })
    const secret = await cli(['webhooks', 'sign', '--payload', '{}'], { env: env() })
    expect(secret.stderr).toBe(
      "error: required option '--secret <secret>' not specified (or set LINKCTL_WEBHOOK_SECRET)\n",
    )
  })
  it('a value given as an argument where the command takes it as an option: the option is named', async () => {
    const games = await cli(['games', 'create', 'Space Race', '--platform', 'ios'], { env: env() })
    expect(games).toMatchObject({
      code: 2,
      stderr:
        "error: required option '--name <name>' not specified (\"Space Race\" was given as an argument: write --name 'Space Race')\n",
    })
    // Without such an argument, the error is commander's alone.
    const none = await cli(['games', 'create', '--platform', 'ios'], { env: env() })
    expect(none.stderr).toBe("error: required option '--name <name>' not specified\n")
    const three = await cli(['gdpr', 'delete', 'p1'], { env: env() })
    expect(three.stderr).toBe(
      "error: required options '--game <id>', '--player <id>' and '--reason <text>' not specified (\"p1\" was given as an argument: did you mean --game p1, --player p1 or --reason p1?)\n",
    )
  })
  it('with several required options missing, the ones the argument could be for are suggested', async () => {
    // --platform takes ios, android…: "Space Race" can only be the name.
    const name = await cli(['games', 'create', 'Space Race'], { env: env() })
    expect(name).toMatchObject({
      code: 2,
      stderr:
        "error: required options '--name <name>' and '--platform <platform>' not specified (\"Space Race\" was given as an argument: did you mean --name 'Space Race'?)\n",
    })
    const either = await cli(['games', 'create', 'ios'], { env: env() })
    expect(either.stderr).toBe(
      "error: required options '--name <name>' and '--platform <platform>' not specified (\"ios\" was given as an argument: did you mean --name ios or --platform ios?)\n",
    )
    // Two words: no single option takes them; the error is commander's.
    const words = await cli(['games', 'create', 'Space', 'Race'], { env: env() })
    expect(words.stderr).toBe("error: required option '--name <name>' not specified\n")
  })
})

describe('--json errors', () => {
  it("the API's error body as JSON on stderr, exit codes unchanged", async () => {
    const r = await cli(['links', 'create', 'ftp://x', '--json'], { env: env() })
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(JSON.parse(r.stderr)).toEqual({
      error: 'ValidationError',
      message: 'destinationUrl must start with http:// or https://',
      statusCode: 400,
      timestamp: '2026-11-21T10:00:00.000Z',
      path: '/api/use/links',
      details: [{ field: 'destinationUrl', message: 'must start with http:// or https://' }],
    })
    const refused = await cli(['keys', 'list', '--json'], { env: env() })
    expect(refused.code).toBe(4)
    expect(JSON.parse(refused.stderr)).toMatchObject({
      error: 'Unauthorized',
      message: 'Invalid API key',
      statusCode: 401,
      hint: expect.stringContaining('the key from LINKCTL_API_KEY was refused'),
    })
  })

  it("usage errors, commander's and linkctl's, in the same shape", async () => {
    const commander = await cli(['keys', 'list', '--json', '--bogus'], { env: env() })
    expect(commander.code).toBe(2)
    expect(JSON.parse(commander.stderr)).toEqual({
      error: 'UsageError',
      message: "unknown option '--bogus'",
      exitCode: 2,
    })
    const own = await cli([...send, '--json'], { env: env(), stdin: event })
    expect(own.code).toBe(2)
    expect(JSON.parse(own.stderr)).toEqual({
      error: 'UsageError',
      message: "required option '--sdk-key <key>' not specified (or set LINKCTL_SDK_KEY)",
      exitCode: 2,
    })
  })
})

describe('linkctl --help', () => {
  it('describes the screens of linkctl tui', async () => {
    const r = await cli(['--help'])
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      'full-screen dashboards (needs a terminal): Home, Links, Keys, Domains, Webhooks, Games, Fraud, SKAN, GDPR, Team',
    )
  })
})

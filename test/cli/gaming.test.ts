/** linkctl games / events send / analytics overview / gdpr against the real daemon (loopback). */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Game, GameWithSecrets } from '../../src/contract/games.js'
import type { GdprDeletion, Overview } from '../../src/contract/gaming.js'
import type { PageOf } from '../../src/contract/common.js'
import { exitCodeFor, formatError } from '../../src/session/exit-codes.js'
import { runGamesCreate } from '../../src/cli/commands/games/create.js'
import { runGamesGet } from '../../src/cli/commands/games/get.js'
import { runGamesList } from '../../src/cli/commands/games/list.js'
import { runGamesRegenerateKey } from '../../src/cli/commands/games/regenerate-key.js'
import { runGamesUpdate } from '../../src/cli/commands/games/update.js'
import { runEventsSend, type SendSummary } from '../../src/cli/commands/events.js'
import { runAnalyticsOverview } from '../../src/cli/commands/analytics/overview.js'
import { runGdprDelete, runGdprList, runGdprStatus } from '../../src/cli/commands/gdpr.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli, tempDir, testCtx } from '../support/cli.js'

let d: TestDaemon
let dir: ReturnType<typeof tempDir>
beforeAll(async () => {
  d = await startTestDaemon()
  // linkctl stamps batches with the real time: the daemon's clock follows it.
  d.clock.set(Date.now())
  dir = tempDir()
})
afterAll(async () => {
  dir.remove()
  await d.close()
})

function as(opts: { json?: boolean; isTTY?: boolean; stdin?: string; env?: NodeJS.ProcessEnv } = {}) {
  return testCtx({
    flags: { url: d.url, apiKey: d.ownerKey },
    json: opts.json ?? true,
    isTTY: opts.isTTY ?? false,
    env: { NO_COLOR: '1', ...opts.env },
    ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}),
  })
}

async function exit(fn: () => Promise<void>): Promise<{ code: number; message: string }> {
  try {
    await fn()
    return { code: 0, message: '' }
  } catch (err) {
    return { code: exitCodeFor(err), message: formatError(err) }
  }
}

let game: GameWithSecrets

describe('linkctl games', () => {
  it('create --json shows the key and secret once; get shows the preview only', async () => {
    const { ctx, out, err } = as()
    await runGamesCreate({ name: 'CLI Quest', platform: 'android', hmac: true, rawRetentionDays: 7 }, ctx)
    game = JSON.parse(out.text) as GameWithSecrets
    expect(game).toMatchObject({
      id: 'cli-quest',
      platform: 'android',
      hmacRequired: true,
      rawRetentionDays: 7,
    })
    expect(game.sdkKey).toMatch(/^sdk_/)
    expect(err.text).toMatch(/shown only now/)
    const g = as()
    await runGamesGet({ id: 'cli-quest' }, g.ctx)
    expect(JSON.parse(g.out.text)).not.toHaveProperty('sdkKey')
  })

  it('list (piped: tab-separated), update, regenerate-key', async () => {
    const l = as({ json: false })
    await runGamesList({}, l.ctx)
    expect(l.out.text.split('\n')[0]).toBe('ID\tNAME\tPLATFORM\tSTATUS\tSDK KEY\tCREATED')
    expect(l.out.text).toContain('cli-quest\tCLI Quest\tandroid\tactive')
    const j = as()
    await runGamesList({ status: 'active' }, j.ctx)
    expect((JSON.parse(j.out.text) as PageOf<Game>).total).toBe(1)

    const u = as()
    await runGamesUpdate({ id: 'cli-quest', fraud: true, replayWindow: 120 }, u.ctx)
    expect(JSON.parse(u.out.text)).toMatchObject({ modules: { fraud: true }, replayWindowSeconds: 120 })
    expect((await exit(() => runGamesUpdate({ id: 'cli-quest' }, as().ctx))).code).toBe(2)

    const r = as()
    await runGamesRegenerateKey({ id: 'cli-quest' }, r.ctx)
    const fresh = JSON.parse(r.out.text) as GameWithSecrets
    expect(fresh.sdkKey).not.toBe(game.sdkKey)
    game = fresh
  })

  it('through the parser: missing --platform is a usage error (exit 2)', async () => {
    const r = await cli(['games', 'create', '--name', 'x', '--url', d.url, '--api-key', d.ownerKey])
    expect(r.code).toBe(2)
  })

  it('a setting the daemon refuses is named as its flag', async () => {
    const flags = ['--url', d.url, '--api-key', d.ownerKey]
    const r = await cli(['games', 'update', 'cli-quest', '--currency', 'XYZ', ...flags])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      'error: --currency XYZ is not an ISO 4217 code (HTTP 400)\n  --currency: must be an ISO 4217 code (e.g. USD, EUR)\n',
    )
  })
})

describe('linkctl events send → analytics overview', () => {
  it('sends a JSON batch file, signed (the game requires HMAC), and JSON lines from stdin, gzipped', async () => {
    const file = join(dir.dir, 'batch.json')
    const now = Date.now()
    writeFileSync(
      file,
      JSON.stringify({
        events: [
          {
            event_type: 'app_install',
            player_id: 'cli-p1',
            session_id: 's1',
            timestamp: new Date(now - 60_000).toISOString(),
          },
          {
            event_type: 'purchase',
            player_id: 'cli-p1',
            session_id: 's1',
            data: { amount: 4.99, currency: 'USD' },
          },
          { event_type: 'session_start', player_id: 'cli-p2', session_id: 's2' },
        ],
      }),
    )
    const base = { game: game.id, sdkKey: game.sdkKey, signingSecret: game.signingSecret }
    const a = as()
    await runEventsSend({ ...base, source: file }, a.ctx)
    expect(JSON.parse(a.out.text) as SendSummary).toMatchObject({ batches: 1, accepted: 3, rejected: 0 })

    // From the environment, organization given, gzipped, JSON lines on stdin.
    const lines = [
      '{"event_type":"level_start","player_id":"cli-p3"}',
      '{"event_type":"level_complete","player_id":"cli-p3"}',
    ].join('\n')
    const b = as({
      stdin: lines,
      env: {
        LINKCTL_SDK_KEY: game.sdkKey,
        LINKCTL_GAME: game.id,
        LINKCTL_SIGNING_SECRET: game.signingSecret,
      },
    })
    await runEventsSend({ source: '-', org: game.organizationId, gzip: true }, b.ctx)
    expect(JSON.parse(b.out.text)).toMatchObject({ accepted: 2 })
  })

  it('unsigned batches to an HMAC game are refused (exit 4); rejected events exit 1 with their reasons', async () => {
    const file = join(dir.dir, 'one.json')
    writeFileSync(file, '[{"event_type":"level_start","player_id":"x"}]')
    const r = await exit(() => runEventsSend({ source: file, game: game.id, sdkKey: game.sdkKey }, as().ctx))
    expect(r.code).toBe(4)
    // The SDK key is right: the advice names the missing secret, not a refused key.
    expect(r.message).toMatch(/requires signed batches/)
    expect(r.message).toContain('give its signing secret with --signing-secret')
    expect(r.message).not.toContain('SDK key from')
    const wrong = await exit(() =>
      runEventsSend(
        { source: file, game: game.id, sdkKey: game.sdkKey, signingSecret: 'sig_wrong' },
        as().ctx,
      ),
    )
    expect(wrong.code).toBe(4)
    expect(wrong.message).toContain('the signing secret from --signing-secret was refused')
    expect(wrong.message).not.toContain('SDK key from')
    // The organization looked up with the API key is right: the SDK key is named alone.
    const key = await exit(() => runEventsSend({ source: file, game: game.id, sdkKey: 'sdk_bad' }, as().ctx))
    expect(key.message).toContain("the SDK key from --sdk-key was refused; use the game's current SDK key")
    // A wrong --org gets the same 401: both are named.
    const org = await exit(() =>
      runEventsSend({ source: file, game: game.id, sdkKey: game.sdkKey, org: 'org_wrong' }, as().ctx),
    )
    expect(org.code).toBe(4)
    expect(org.message).toContain('the SDK key from --sdk-key or the organization id from --org was refused')
    // An API key that may not read games cannot look the organization up: --org is the way.
    const created = await fetch(`${d.url}/api/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'links only', permissions: ['links:read'] }),
    })
    const linksOnly = ((await created.json()) as { key: string }).key
    const lookup = await exit(() =>
      runEventsSend(
        { source: file, game: game.id, sdkKey: game.sdkKey },
        testCtx({ flags: { url: d.url, apiKey: linksOnly }, json: true, isTTY: false, env: {} }).ctx,
      ),
    )
    expect(lookup.code, lookup.message).toBe(4)
    expect(lookup.message).toContain('lacks the games:read permission (HTTP 403): the API key looks up')
    expect(lookup.message).toContain('give it with --org <id> (or LINKCTL_ORG_ID) instead')
    // A file that cannot be read is named, as other linkctl commands do.
    const missing = join(dir.dir, 'missing.json')
    const none = await exit(() =>
      runEventsSend({ source: missing, game: game.id, sdkKey: game.sdkKey }, as().ctx),
    )
    expect(none).toMatchObject({
      code: 2,
      message: expect.stringContaining(`error: cannot read ${missing}: no such file`),
    })

    writeFileSync(file, '[{"event_type":"purchase","player_id":"x","data":{"amount":1}}]')
    const t = as({ json: false })
    const bad = await exit(() =>
      runEventsSend(
        { source: file, game: game.id, sdkKey: game.sdkKey, signingSecret: game.signingSecret },
        t.ctx,
      ),
    )
    expect(bad.code).toBe(1)
    expect(t.out.text).toContain('InvalidEvent')
    expect(t.out.text).toContain('currency')
    // Said once: the table's heading, then the error (no separate warning line).
    expect(bad.message).toBe('error: 1 of 1 event was rejected\n')
    expect(t.err.text).toBe('Events not stored (rejected or blocked):\n')
  })

  it('the events show in linkctl analytics overview', async () => {
    const { ctx, out } = as()
    await runAnalyticsOverview({ game: game.id }, ctx)
    const o = JSON.parse(out.text) as Overview
    expect(o.dau).toBe(3)
    expect(o.revenue).toEqual({ total: 4.99, iap: 4.99, ad: 0, subscription: 0 })
    expect(o.arppu).toBe(4.99)
    const human = as({ json: false, isTTY: true })
    await runAnalyticsOverview({ game: game.id }, human.ctx)
    expect(human.out.text).toMatch(/^DAU\s+3$/m)
  })
})

describe('linkctl gdpr', () => {
  it('without a terminal requires --confirm DELETE (exit 2); a wrong value is refused', async () => {
    const opts = { game: game.id, player: 'cli-p3', reason: 'user_request' }
    expect((await exit(() => runGdprDelete(opts, as().ctx))).code).toBe(2)
    expect((await exit(() => runGdprDelete({ ...opts, confirm: 'delete' }, as().ctx))).code).toBe(2)
  })

  it('on a terminal asks to type DELETE; anything else aborts', async () => {
    const asked: string[] = []
    const prompting = (answer: string) =>
      testCtx({
        flags: { url: d.url, apiKey: d.ownerKey },
        json: true,
        canPrompt: true,
        prompt: {
          secret: async () => '',
          confirm: async () => false,
          text: async (q) => (asked.push(q), answer),
        },
      })
    const opts = { game: game.id, player: 'cli-p3', reason: 'user_request' }
    expect((await exit(() => runGdprDelete(opts, prompting('yes').ctx))).code).toBe(1)
    // Lower case is not DELETE: said so, nothing sent.
    expect(await exit(() => runGdprDelete(opts, prompting('delete').ctx))).toEqual({
      code: 1,
      message: 'error: aborted, nothing deleted: type DELETE in capitals to confirm\n',
    })
    const ok = prompting('DELETE')
    await runGdprDelete(opts, ok.ctx)
    expect(asked[0]).toMatch(/Type DELETE to confirm/)
    const req = JSON.parse(ok.out.text) as GdprDeletion
    expect(req.status).toBe('queued')

    await d.app.linkd.scheduler.runNow('gdpr-deletions')
    const s = as()
    await runGdprStatus({ id: req.id }, s.ctx)
    expect(JSON.parse(s.out.text)).toMatchObject({ id: req.id, status: 'completed' })
  })

  it('--confirm DELETE works without a terminal', async () => {
    // A later request than cli-p3's: the list below is newest first, and the clock is the test's.
    d.clock.advance(1000)
    const { ctx, out } = as()
    await runGdprDelete({ game: game.id, player: 'cli-p2', reason: 'gdpr_request', confirm: 'DELETE' }, ctx)
    expect(JSON.parse(out.text)).toMatchObject({ playerId: 'cli-p2', status: 'queued' })
  })

  it('list: the records of the organization, newest first; --game and --status filter; piped as a table', async () => {
    const all = as()
    await runGdprList({}, all.ctx)
    const page = JSON.parse(all.out.text) as PageOf<GdprDeletion>
    expect(page.data.map((r) => [r.playerId, r.status])).toEqual([
      ['cli-p2', 'queued'],
      ['cli-p3', 'completed'],
    ])
    const done = as()
    await runGdprList({ game: game.id, status: 'completed' }, done.ctx)
    expect((JSON.parse(done.out.text) as PageOf<GdprDeletion>).data.map((r) => r.playerId)).toEqual([
      'cli-p3',
    ])
    const none = as()
    await runGdprList({ game: 'no-such-game' }, none.ctx)
    expect((JSON.parse(none.out.text) as PageOf<GdprDeletion>).total).toBe(0)
    const piped = as({ json: false })
    await runGdprList({ status: 'queued' }, piped.ctx)
    const lines = piped.out.text.trim().split('\n')
    expect(lines[0]).toBe('ID\tGAME\tPLAYER\tSTATUS\tREASON\tREQUESTED\tCOMPLETED')
    expect(lines.slice(1).map((l) => l.split('\t').slice(1, 5))).toEqual([
      [game.id, 'cli-p2', 'queued', 'gdpr_request'],
    ])
  })
})

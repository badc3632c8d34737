/**
 * Caches across processes (PostgreSQL: LISTEN/NOTIFY, daemon/db/notify.ts). Three apps on one
 * database, as three linkd processes: what one changes, the others stop serving from memory. The
 * fake clocks stand still, so the caches' own expiry never explains what the tests see: only the
 * change feed does.
 */
import { afterEach, describe, expect, it } from 'vitest'
import pg from 'pg'
import { postgresOnly } from '../../support/postgres.js'
import { createSharedApps, eventually, type SharedApps } from '../../support/shared-database.js'
import { makeLink, visit } from '../../support/redirect.js'
import { batch, createGame, event, send } from '../../support/gaming.js'
import { sqlRows, type TestApp } from '../../support/app.js'

let shared: SharedApps
afterEach(() => shared.close())

const apps = () => shared.apps as [TestApp, TestApp, TestApp]

describe.runIf(postgresOnly())('caches with three processes on one PostgreSQL database', () => {
  it('a link deleted or changed through one process stops redirecting (or moves) on the others', async () => {
    shared = await createSharedApps(3)
    const [a, b, c] = apps()
    const gone = await makeLink(a, { destinationUrl: 'https://example.com/old' })
    const moved = await makeLink(a, { destinationUrl: 'https://example.com/before' })
    for (const t of [b, c])
      for (const link of [gone, moved]) expect((await visit(t, link.shortCode)).statusCode).toBe(302)
    expect(b.app.linkd.services.redirect.cache.size).toBe(2) // served from memory from now on

    expect((await a.call('DELETE', `/api/use/links/${gone.id}`)).statusCode).toBe(204)
    const patched = await a.call('PATCH', `/api/use/links/${moved.id}`, {
      body: { destinationUrl: 'https://example.com/after' },
    })
    expect(patched.statusCode, patched.body).toBe(200)

    for (const t of [b, c]) {
      await eventually(async () => (await visit(t, gone.shortCode)).statusCode !== 302, 'deleted link')
      expect((await visit(t, gone.shortCode)).statusCode).toBe(404)
      await eventually(
        async () => (await visit(t, moved.shortCode)).headers.location === 'https://example.com/after',
        'updated link',
      )
    }
  })

  it('a short code changed through one process answers 404 on the others; maxClicks holds across them', async () => {
    shared = await createSharedApps(3)
    const [a, b, c] = apps()
    const link = await makeLink(a, { customSlug: 'before-move' })
    for (const t of [b, c]) expect((await visit(t, 'before-move')).statusCode).toBe(302)
    const patched = await a.call('PATCH', `/api/use/links/${link.id}`, {
      body: { shortCode: 'after-move', force: true },
    })
    expect(patched.statusCode, patched.body).toBe(200)
    for (const t of [b, c]) {
      await eventually(async () => (await visit(t, 'before-move')).statusCode === 404, 'moved code')
      expect((await visit(t, 'after-move')).statusCode).toBe(302)
    }

    const capped = await makeLink(a, { maxClicks: 4, expiredUrl: 'https://example.com/sold-out' })
    const all = await Promise.all(
      [a, b, c, a, b, c, a, b, c].map((t, i) => visit(t, capped.shortCode, { ip: `203.0.113.${i + 1}` })),
    )
    const to = all.map((r) => r.headers.location)
    expect(to.filter((l) => l === 'https://example.com/landing')).toHaveLength(4)
    expect(to.filter((l) => l === 'https://example.com/sold-out')).toHaveLength(5)
  })

  it('webhooks created through one process receive events announced by another', async () => {
    shared = await createSharedApps(2)
    const [a, b] = apps()
    const webhooks = b.app.linkd.services.webhooks
    // Nobody subscribes yet, so clicks are not even dispatched, once the process has read that (it
    // assumes every type wanted until then, and again while another process's change is re-read).
    await eventually(() => !webhooks.wants('link.created'), 'no subscription known')
    const res = await a.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: 'https://hooks.example.com/x', events: ['link.created'] },
    })
    expect(res.statusCode, res.body).toBe(201)
    await eventually(() => webhooks.wants('link.created'), 'subscription seen by the other process')
    await makeLink(b, {}, a.ownerKey)
    await webhooks.settle()
    const log = await b.call('GET', `/api/webhooks/${res.json<{ id: string }>().id}/deliveries`, {
      key: a.ownerKey,
    })
    expect(log.json<{ data: Array<{ event: string }> }>().data.map((d) => d.event)).toEqual(['link.created'])
  })

  it('domains, fraud rules and the blocklist changed through one process reach the others', async () => {
    shared = await createSharedApps(2)
    const [a, b] = apps()
    const created = await a.call('POST', '/api/domains', { body: { domain: 'go.example.org' } })
    expect(created.statusCode, created.body).toBe(201)
    await eventually(() => b.app.linkd.services.directory.knowsHost('go.example.org'), 'new domain')
    expect((await a.call('DELETE', `/api/domains/${created.json<{ id: string }>().id}`)).statusCode).toBe(204)
    await eventually(() => !b.app.linkd.services.directory.knowsHost('go.example.org'), 'deleted domain')

    const game = await createGame(a, { modules: { fraud: true } })
    const gameId = (await a.app.linkd.services.gaming.games.record(a.orgId, game.id)).id
    await eventually(() => b.app.linkd.services.gaming.fraud.rulesOf(gameId).length > 0, 'fraud templates')
    const listed = () => b.app.linkd.services.gaming.fraud.listed(gameId, '192.0.2.7', null, b.clock.now())
    expect(listed()).toBeFalsy()
    const block = await a.call('POST', `/api/v1/admin/fraud/games/${game.id}/blocklist`, {
      body: { type: 'ip', value: '192.0.2.7' },
    })
    expect(block.statusCode, block.body).toBe(201)
    await eventually(() => Boolean(listed()), 'blocklist entry')
  })

  it('a root redirect flagged by a safety list through one process answers the warning page on the others', async () => {
    shared = await createSharedApps(2)
    const [a, b] = apps()
    const rootOf = (t: TestApp) =>
      t.app.inject({ method: 'GET', url: '/', headers: { host: 'root.example.org' } })
    const created = await a.call('POST', '/api/domains', { body: { domain: 'root.example.org' } })
    expect(created.statusCode, created.body).toBe(201)
    const id = created.json<{ id: string }>().id
    await sqlRows(a, "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?", id)
    const patched = await a.call('PATCH', `/api/domains/${id}`, {
      body: { rootRedirectUrl: 'https://landing.listed.test/' },
    })
    expect(patched.statusCode, patched.body).toBe(200)
    await eventually(async () => (await rootOf(b)).statusCode === 302, 'root redirect')

    const up = await a.app.inject({
      method: 'POST',
      url: '/api/safety/lists?name=feed',
      headers: { authorization: `Bearer ${a.ownerKey}`, 'content-type': 'text/plain' },
      payload: 'listed.test\n',
    })
    expect(up.statusCode, up.body).toBe(201)
    await a.app.linkd.services.safety.settled()
    await eventually(async () => (await rootOf(b)).statusCode === 200, 'flagged root')
    expect((await rootOf(b)).body).toContain('listed.test')
  })

  it('an API key revoked through one process is refused by the others at once (keys are not cached)', async () => {
    shared = await createSharedApps(3)
    const [a, b, c] = apps()
    const key = await a.createKey({ name: 'short-lived', permissions: ['links:read'] })
    expect((await b.call('GET', '/api/use/links', { key: key.key })).statusCode).toBe(200)
    expect((await a.call('POST', `/api/keys/${key.id}/revoke`)).statusCode).toBe(200)
    expect((await b.call('GET', '/api/use/links', { key: key.key })).statusCode).toBe(401)
    expect((await c.call('GET', '/api/use/links', { key: key.key })).statusCode).toBe(401)
  })

  it('a game paused, or its SDK key regenerated, through one process is refused by the others', async () => {
    shared = await createSharedApps(3)
    const [a, b, c] = apps()
    const game = await createGame(a)
    const sendTo = (t: TestApp, sdkKey = game.sdkKey) =>
      send(t, batch(t, [event(t)]), { game: { ...game, sdkKey }, orgId: a.orgId })
    // Each process now holds the game in memory (ingestion authenticates every batch).
    for (const t of [b, c]) expect((await sendTo(t)).statusCode).toBe(202)

    const paused = await a.call('PATCH', `/api/v1/admin/games/${game.id}`, { body: { status: 'paused' } })
    expect(paused.statusCode, paused.body).toBe(200)
    for (const t of [b, c]) await eventually(async () => (await sendTo(t)).statusCode === 403, 'paused game')
    expect(
      await a
        .call('PATCH', `/api/v1/admin/games/${game.id}`, { body: { status: 'active' } })
        .then((r) => r.statusCode),
    ).toBe(200)
    for (const t of [b, c]) await eventually(async () => (await sendTo(t)).statusCode === 202, 'active again')

    const regenerated = await a.call('POST', `/api/v1/admin/games/${game.id}/sdk-key`)
    const { sdkKey } = regenerated.json<{ sdkKey: string }>()
    for (const t of [b, c]) {
      await eventually(async () => (await sendTo(t)).statusCode === 401, 'old SDK key')
      expect((await sendTo(t, sdkKey)).statusCode).toBe(202)
    }
  })

  it('a process whose LISTEN connection drops reconnects and hears changes again', async () => {
    shared = await createSharedApps(2)
    const [a, b] = apps()
    const admin = new pg.Client({ connectionString: shared.database.url })
    await admin.connect()
    try {
      const listeners = async () =>
        (
          await admin.query<{ pid: number }>(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
          )
        ).rows.map((r) => r.pid)
      expect(await listeners()).toHaveLength(2)
      // Cut every listening connection (the server restarted, a proxy dropped it).
      for (const pid of await listeners()) await admin.query('SELECT pg_terminate_backend($1)', [pid])
      await eventually(async () => (await listeners()).length === 2, 'both processes listening again')

      const link = await makeLink(a)
      expect((await visit(b, link.shortCode)).statusCode).toBe(302)
      expect((await a.call('DELETE', `/api/use/links/${link.id}`)).statusCode).toBe(204)
      await eventually(async () => (await visit(b, link.shortCode)).statusCode === 404, 'deleted link')
    } finally {
      await admin.end()
    }
  })
})

/**
 * The GDPR screen against a real linkd: the organization's deletions listed from the route, a
 * deletion needs DELETE typed, then its status is followed as the daemon's job runs it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { frameWith, KEY, press, refreshUntil } from './harness.js'
import { newOrg, renderOnDaemon, useDaemon } from './tui-daemon.js'

afterEach(() => cleanup())

const daemon = useDaemon()

/** A new organization with the game space-race. */
async function withGame() {
  const org = await newOrg(daemon())
  await org.api.games.create({ name: 'Space Race', slug: 'space-race', platform: 'ios' })
  return org
}

const runDeletions = async () =>
  expect(await daemon().app.linkd.scheduler.runNow('gdpr-deletions')).toMatchObject({
    ran: true,
    status: 'ok',
  })

describe('gdpr screen', () => {
  it('submits a deletion once DELETE is typed and follows it to completed', async () => {
    const org = await withGame()
    const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'gdpr' })
    await frameWith(app, 'No GDPR deletions.')
    await press(app, 'n')
    await frameWith(app, 'Type DELETE to confirm')
    await press(app, 'space-race', KEY.enter, 'player_9', KEY.enter, KEY.enter, 'delete', KEY.enter)
    // The daemon's refusal under the form, which stays open.
    const refused = await frameWith(app, 'confirmation must be the text DELETE (HTTP 400)')
    expect(refused).toContain('Type DELETE to confirm: delete')
    expect((await org.api.gaming.deletions()).total).toBe(0)
    for (let i = 0; i < 'delete'.length; i++) await press(app, KEY.backspace)
    await press(app, 'DELETE', KEY.enter)
    const queued = await frameWith(app, 'queued')
    const [deletion] = (await org.api.gaming.deletions()).data
    expect(queued).toContain(`deletion ${deletion!.id} queued`)
    expect(deletion).toMatchObject({ gameId: 'space-race', playerId: 'player_9', status: 'queued' })
    // The daemon's job runs it; the next refresh shows it done.
    await runDeletions()
    const done = await refreshUntil(app, (f) => f.includes('completed'), 'completed')
    expect(done).toMatch(new RegExp(`${deletion!.id}\\s+space-race\\s+player_9\\s+completed`))
  })

  it('follows a deletion by id; a key without gdpr:write cannot submit', async () => {
    const org = await withGame()
    const queued = await org.api.gaming.requestDeletion({
      gameId: 'space-race',
      playerId: 'p',
      reason: 'r',
      confirmation: 'DELETE',
    })
    const app = renderOnDaemon(daemon(), org.ownerKey, {
      initialScreen: 'gdpr',
      scopes: new Set(['gdpr:read']),
    })
    await frameWith(app, 'f follow a deletion by id')
    expect(app.lastFrame()).not.toContain('n new deletion')
    await press(app, 'n')
    expect(await frameWith(app, 'n (new deletion) needs the scope gdpr:write')).not.toContain('Type DELETE')
    expect(app.sent('gaming.requestDeletion')).toEqual([])
    await runDeletions()
    await press(app, 'f', queued.id, KEY.enter)
    await frameWith(app, queued.id, 'completed')
    expect(app.sent('gaming.deletion')).toContainEqual([queued.id])
  })

  it('lists the past deletions from the route, newest first, and again after another screen', async () => {
    const d = daemon()
    const org = await withGame()
    const ids: string[] = []
    for (const playerId of ['p_old', 'p_new']) {
      d.clock.advance(1000)
      const body = { gameId: 'space-race', playerId, reason: 'r', confirmation: 'DELETE' as const }
      ids.push((await org.api.gaming.requestDeletion(body)).id)
    }
    const app = renderOnDaemon(d, org.ownerKey, { initialScreen: 'gdpr' })
    const listed = await frameWith(app, '2 deletions (records kept')
    expect(listed).toMatch(
      new RegExp(`${ids[1]}\\s+space-race\\s+p_new[\\s\\S]*${ids[0]}\\s+space-race\\s+p_old`),
    )
    expect(app.sent('gaming.deletions').length).toBeGreaterThan(0)
    await runDeletions()
    await refreshUntil(app, (f) => (f.match(/completed/g) ?? []).length === 2, 'both completed')
    await press(app, '1')
    await frameWith(app, 'Jobs')
    await press(app, '9')
    const back = await frameWith(app, 'f follow', ids[1]!)
    expect(back).toContain(ids[0])
  })
})

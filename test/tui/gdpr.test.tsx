/**
 * The GDPR screen against the fake client: the organization's deletions listed from the route, a
 * deletion needs DELETE typed, then its status is followed.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient } from './fake-client.js'
import { frameWith, KEY, press, renderTui } from './harness.js'

afterEach(() => cleanup())

describe('gdpr screen', () => {
  it('submits a deletion once DELETE is typed and follows it to completed', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'gdpr' })
    await frameWith(app, 'No GDPR deletions.')
    await press(app, 'n')
    await frameWith(app, 'Type DELETE to confirm')
    await press(app, 'game_1', KEY.enter, 'player_9', KEY.enter, KEY.enter, 'delete', KEY.enter)
    // The message states the field's problem: it is shown once, not again as "confirmation: …".
    const refused = await frameWith(app, 'confirmation must be DELETE (HTTP 400)')
    expect(refused).not.toContain('confirmation: must be DELETE')
    expect(client.deletions.size).toBe(0)
    for (let i = 0; i < 'delete'.length; i++) await press(app, KEY.backspace)
    await press(app, 'DELETE', KEY.enter)
    await frameWith(app, 'deletion gdpr_1 queued')
    // Each read moves the fake's deletion on: queued, processing, completed.
    app.refresh()
    await frameWith(app, 'processing')
    app.refresh()
    const done = await frameWith(app, 'completed')
    expect(done).toMatch(/gdpr_1\s+game_1\s+player_9\s+completed\s+13/)
  })

  it('follows a deletion by id; a key without gdpr:write cannot submit', async () => {
    const client = new FakeClient()
    const queued = await client.gaming.requestDeletion({
      gameId: 'g',
      playerId: 'p',
      reason: 'r',
      confirmation: 'DELETE',
    })
    const app = renderTui({ client, initialScreen: 'gdpr', scopes: new Set(['gdpr:read']) })
    await frameWith(app, 'f follow a deletion by id')
    expect(app.lastFrame()).not.toContain('n new deletion')
    await press(app, 'n')
    expect(await frameWith(app, 'n (new deletion) needs the scope gdpr:write')).not.toContain('Type DELETE')
    await press(app, 'f', queued.id, KEY.enter)
    await frameWith(app, 'gdpr_1', 'completed')
  })

  it('lists the past deletions from the route, without following them, and again after another screen', async () => {
    const client = new FakeClient()
    for (const playerId of ['p_old', 'p_new'])
      await client.gaming.requestDeletion({ gameId: 'g', playerId, reason: 'r', confirmation: 'DELETE' })
    const app = renderTui({ client, initialScreen: 'gdpr' })
    const listed = await frameWith(app, '2 deletions (records kept 365 days after completion)')
    // Newest first.
    expect(listed).toMatch(/gdpr_2\s+g\s+p_new[\s\S]*gdpr_1\s+g\s+p_old/)
    expect(client.calls).toContain('gaming.deletions')
    app.refresh()
    await frameWith(app, 'completed')
    await press(app, '1')
    await frameWith(app, 'Jobs')
    await press(app, '9')
    const back = await frameWith(app, 'f follow', 'gdpr_2')
    expect(back).toContain('gdpr_1')
  })
})

/**
 * Game events arrive up to 24 h late, so the day the daily export writes at 00:20 UTC may still
 * gain rows: the next night writes that day's raw events again (same key, replaced whole), once;
 * clicks, which never arrive late, are not written again. A night the job missed is made up.
 * Against s3rver, with the scheduler's job and the app's clock.
 */
import { DeleteObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../src/contract/games.js'
import type { ExportDestination } from '../../../src/contract/raw-export.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../support/gaming.js'
import { flush, makeLink, visit } from '../../support/redirect.js'
import { S3RVER_KEY, startS3, type TestS3 } from '../../support/s3.js'

let t: TestApp
let s3: TestS3
let game: GameWithSecrets

beforeAll(async () => {
  s3 = await startS3(['late'])
  t = await createTestApp({ ingestRateLimitPerGame: 100_000 }, { exportRetryDelaysMs: [10, 10] })
  game = await createGame(t, { slug: 'late-game' })
  await makeLink(t, { customSlug: 'late' })
}, 60_000)
afterAll(async () => {
  await t.close()
  await s3.close()
})

/** Events sent now, each with its own timestamp (ISO). */
async function sendAt(...timestamps: string[]) {
  const events = timestamps.map((timestamp, i) => event(t, { player_id: `p${i}`, timestamp }))
  expect(accepted(await send(t, batch(t, events), { game, orgId: t.orgId }))).toMatchObject({
    accepted: timestamps.length,
    rejected: 0,
  })
}
const rowsOf = async (dataset: string, date: string) =>
  (await s3.get('late', `nightly/${dataset}/date=${date}/part-0.csv`)).toString().trimEnd().split('\r\n')
    .length - 1
const keys = async () => (await s3.keys('late')).map((k) => k.replace(/^nightly\/|\/part-0\.csv$/g, ''))
const remove = (dataset: string, date: string) =>
  s3.client.send(
    new DeleteObjectCommand({ Bucket: 'late', Key: `nightly/${dataset}/date=${date}/part-0.csv` }),
  )
async function night(iso: string) {
  t.clock.set(iso)
  const result = await t.app.linkd.scheduler.runNow('scheduled-exports')
  expect(result.status, result.error).toBe('ok')
}

describe('the daily export and late events', () => {
  it('writes a day again the night after, with the events that came late; once; a missed night is made up', async () => {
    t.clock.set('2026-11-20T12:00:00.000Z')
    await sendAt('2026-11-20T11:00:00.000Z', '2026-11-20T11:30:00.000Z', '2026-11-20T12:00:00.000Z')
    expect((await visit(t, 'late', { ip: '198.51.100.1' })).statusCode).toBe(302)
    await flush(t)
    const res = await t.call('POST', '/api/exports/destinations', {
      body: {
        endpoint: s3.endpoint,
        bucket: 'late',
        prefix: 'nightly',
        ...S3RVER_KEY,
        format: 'csv',
        datasets: ['raw_events', 'clicks'],
        gameId: 'late-game',
      },
    })
    expect(res.statusCode, res.body).toBe(201)
    const d = res.json<ExportDestination>()

    await night('2026-11-21T00:20:00.000Z')
    expect(await keys()).toEqual(['clicks/date=2026-11-20', 'raw_events/date=2026-11-20'])
    expect(await rowsOf('raw_events', '2026-11-20')).toBe(3)

    // During 11-21: two events of 11-20 (hours late, as a phone back online sends them), one of 11-21.
    t.clock.set('2026-11-21T10:00:00.000Z')
    await sendAt('2026-11-20T22:00:00.000Z', '2026-11-20T23:59:00.000Z', '2026-11-21T09:00:00.000Z')
    // Clicks are never late: their object of 11-20 is not written again.
    await remove('clicks', '2026-11-20')

    await night('2026-11-22T00:20:00.000Z')
    expect(await rowsOf('raw_events', '2026-11-20')).toBe(5)
    expect(await rowsOf('raw_events', '2026-11-21')).toBe(1)
    expect(await keys()).toEqual([
      'clicks/date=2026-11-21',
      'raw_events/date=2026-11-20',
      'raw_events/date=2026-11-21',
    ])
    expect((await t.call('GET', '/api/exports/destinations')).json().data[0]).toMatchObject({
      id: d.id,
      lastExportedDate: '2026-11-21',
      lastError: null,
    })

    // Once: 11-20 is not written a third time; 11-21 gets its late event.
    t.clock.set('2026-11-22T08:00:00.000Z')
    await sendAt('2026-11-21T20:00:00.000Z')
    await remove('raw_events', '2026-11-20')
    await night('2026-11-23T00:20:00.000Z')
    expect(await rowsOf('raw_events', '2026-11-21')).toBe(2)
    expect(await rowsOf('raw_events', '2026-11-22')).toBe(0)
    expect(await keys()).not.toContain('raw_events/date=2026-11-20')

    // A late event of 11-22, then the night of 11-24 is missed: the next one writes 11-22 again.
    t.clock.set('2026-11-23T06:00:00.000Z')
    await sendAt('2026-11-22T23:00:00.000Z')
    await night('2026-11-25T00:20:00.000Z')
    expect(await rowsOf('raw_events', '2026-11-22')).toBe(1)
    expect(await keys()).toEqual(
      expect.arrayContaining(['raw_events/date=2026-11-23', 'raw_events/date=2026-11-24']),
    )
  })
})

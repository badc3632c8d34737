/**
 * kill -9 while batches are being committed (in groups on SQLite, concurrently on PostgreSQL):
 * started again on the same data, every batch answered 202 is there whole with its batch_id record,
 * no batch is there in part, and the aggregates count exactly the stored events. The built binary;
 * on SQLite, and on PostgreSQL under LINKD_TEST_ENGINE=postgres.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../daemon/db/open.js'
import { sqlRows } from '../support/app.js'
import { ingestionHeaders } from '../support/gaming.js'
import { databaseUrlOf, dropDatabaseOf, startLinkd, type RunningLinkd } from '../support/processes.js'

let work = ''
let daemon: RunningLinkd | undefined
afterAll(async () => {
  await daemon?.stop('SIGKILL')
  if (work) {
    await dropDatabaseOf(join(work, 'data'))
    rmSync(work, { recursive: true, force: true })
  }
})

const ENV = { LINKD_INGEST_RATE_LIMIT_PER_GAME: '1000000', LINKD_INGEST_RATE_LIMIT_PER_CLIENT: '1000000' }

describe('kill -9 during ingestion', () => {
  it('every 202 batch is stored whole, none in part, and the aggregates agree', async () => {
    work = mkdtempSync(join(tmpdir(), 'linkd-ingest-crash-'))
    const dataDir = join(work, 'data')
    const first = (daemon = await startLinkd(dataDir, ENV))
    const owner = first.ownerKey()!
    const res = await fetch(`${first.url}/api/v1/admin/games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Crash', platform: 'web' }),
    })
    const game = (await res.json()) as { id: string; sdkKey: string; organizationId: string }

    /** Every batch sent: its size, and its answer once one came. */
    const sent = new Map<string, { events: number; body: string; answer?: string }>()
    let sending = true
    let n = 0
    const sender = async () => {
      while (sending) {
        const batchId = randomUUID()
        const size = 5 + (n++ % 40)
        const player = `player-${batchId.slice(0, 8)}`
        const body = JSON.stringify({
          batch_id: batchId,
          batch_timestamp: new Date().toISOString(),
          events: Array.from({ length: size }, (_, i) => ({
            event_id: randomUUID(),
            event_type: i === 0 ? 'session_start' : 'level_start',
            timestamp: new Date().toISOString(),
            player_id: player,
            session_id: `${player}-s`,
            data: { level: i },
          })),
        })
        sent.set(batchId, { events: size, body })
        try {
          const r = await fetch(`${first.url}/api/v1/gaming/events`, {
            method: 'POST',
            headers: ingestionHeaders(game),
            body,
          })
          const text = await r.text()
          if (r.status === 202) sent.get(batchId)!.answer = text
        } catch {
          // the kill cut the connection: no answer
        }
      }
    }
    const senders = Array.from({ length: 16 }, () => sender())
    // Until a few hundred batches were answered, then the kill, mid-stream.
    while ([...sent.values()].filter((b) => b.answer).length < 300)
      await new Promise((r) => setTimeout(r, 20))
    await first.stop('SIGKILL')
    sending = false
    await Promise.all(senders)
    const answered = [...sent].filter(([, b]) => b.answer)
    expect(answered.length).toBeGreaterThanOrEqual(300)
    expect(answered.length).toBeLessThan(sent.size) // some were in flight

    const second = (daemon = await startLinkd(dataDir, ENV))
    const db = openDatabase(await databaseUrlOf(dataDir))
    try {
      const stored = new Map(
        (
          await sqlRows<{ batch_id: string; n: number | string }>(
            { db },
            'SELECT batch_id, count(*) AS n FROM game_events GROUP BY batch_id',
          )
        ).map((r) => [r.batch_id, Number(r.n)]),
      )
      const records = new Set(
        (await sqlRows<{ batch_id: string }>({ db }, 'SELECT batch_id FROM game_batches')).map(
          (r) => r.batch_id,
        ),
      )
      for (const [id, b] of answered) {
        expect(stored.get(id), `batch ${id} answered 202`).toBe(b.events)
        expect(records.has(id)).toBe(true)
      }
      // Batches without an answer: stored whole or not at all.
      for (const [id, count] of stored) expect(count, `batch ${id}`).toBe(sent.get(id)!.events)
      const total = [...stored.values()].reduce((a, b) => a + b, 0)
      const [daily] = await sqlRows<{ events: number | string }>(
        { db },
        'SELECT sum(events) AS events FROM game_daily',
      )
      expect(Number(daily!.events)).toBe(total)
    } finally {
      await db.close()
    }

    // A 202'd batch sent again is answered as the first time, and stores nothing more.
    const [, replay] = answered[answered.length - 1]!
    const again = await fetch(`${second.url}/api/v1/gaming/events`, {
      method: 'POST',
      headers: ingestionHeaders(game),
      body: replay.body,
    })
    expect(again.status).toBe(202)
    expect(await again.text()).toBe(replay.answer)
  })
})

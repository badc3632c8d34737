import { randomUUID } from 'node:crypto'
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestApp } from '../../support/app.js'
import { createGame, send } from '../../support/gaming.js'
import { prng } from '../../support/prng.js'

const dir = mkdtempSync(join(tmpdir(), 'walexp-'))
const file = join(dir, 'x.db')
const t = await createTestApp({ databaseUrl: `sqlite:${file}`, ingestRateLimitPerGame: 1e9 })
for (const s of (process.env.EXP_SQL ?? '').split(';').filter(Boolean)) t.db.sqlite.exec(s)
t.db.sqlite.pragma('wal_autocheckpoint = 0')
t.db.sqlite.pragma('wal_checkpoint(TRUNCATE)')
const game = await createGame(t, { platform: 'android' })
const rand = prng(7)
const TYPES = ['session_start', 'level_start', 'level_complete', 'currency_earned', 'battle_won', 'session_end']
const N = Number(process.env.EXP_BATCHES ?? 30)
const now = t.clock.now()
let wal = 0
const frames: number[] = []
let cpu = 0
for (let b = 0; b < N; b++) {
  const events = []
  for (let i = 0; i < 1000; i++) {
    const player = `player-${Math.floor(rand() * 200_000)}`
    const purchase = rand() < 0.02
    events.push({
      event_id: randomUUID(),
      event_type: purchase ? 'purchase' : TYPES[i % TYPES.length],
      timestamp: new Date(process.env.EXP_ORDERED ? now - 3_600_000 + b * 30_000 + Math.floor(rand() * 10_000) : now - Math.floor(rand() * 3_600_000)).toISOString(),
      player_id: player,
      session_id: `${player}-s`,
      platform: 'android',
      data: purchase
        ? { amount: 4.99, currency: 'USD', country: 'DE' }
        : { level: Math.floor(rand() * 50), country: 'DE', device_fingerprint: `fp-${player}` },
    })
  }
  const c0 = process.cpuUsage()
  const res = await send(t, { batch_id: randomUUID(), batch_timestamp: new Date(now).toISOString(), events }, { game, orgId: t.orgId })
  const c1 = process.cpuUsage(c0)
  cpu += (c1.user + c1.system) / 1000
  if (res.statusCode !== 202) throw new Error(res.body)
  const size = statSync(file + '-wal').size
  frames.push((size - wal) / 4120)
  wal = size
}
const tail = frames.slice(-10)
console.log(`pages/batch first ${frames[0]!.toFixed(0)} last10 avg ${(tail.reduce((a, b) => a + b, 0) / tail.length).toFixed(0)}; cpu ms/batch ${(cpu / N).toFixed(1)}; db pages ${t.db.sqlite.pragma('page_count', { simple: true })}`)
const stat = t.db.sqlite.prepare("SELECT name, COUNT(*) AS pages FROM dbstat GROUP BY name ORDER BY pages DESC LIMIT 14").all()
console.log(stat.map((r: any) => `${r.name}:${r.pages}`).join(' '))
await t.close()

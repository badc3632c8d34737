/**
 * Three apps on one database (PostgreSQL under `npm run test:pg`), each with its own scheduler, as
 * three linkd processes: each scheduled job runs once per schedule, whichever instance ticks first.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createSharedApps, type SharedApps } from '../../support/shared-database.js'

const MINUTE = 60_000
let shared: SharedApps
afterEach(() => shared.close())

/** Every app's clock at the same instant (the processes' clocks agree). */
const setClocks = (at: number) => shared.apps.forEach((a) => a.clock.set(at))
const ranCount = (results: Array<{ ran: boolean }>) => results.filter((r) => r.ran).length

describe('scheduled jobs with three instances on one database', () => {
  it("one instance runs each minute's job, even when the ticks come one after another", async () => {
    shared = await createSharedApps(3)
    const start = Date.parse('2026-11-21T10:05:00.000Z')
    setClocks(start)
    // The ticks of one minute reach the instances a little apart: each finds the run done.
    const sequential = []
    for (const [i, a] of shared.apps.entries()) {
      setClocks(start + i * 400)
      sequential.push(await a.app.linkd.scheduler.runScheduled('expire-keys'))
    }
    expect(ranCount(sequential)).toBe(1)

    // The next minute: all three at once; still one run.
    setClocks(start + MINUTE)
    const together = await Promise.all(
      shared.apps.map((a) => a.app.linkd.scheduler.runScheduled('expire-keys')),
    )
    expect(ranCount(together)).toBe(1)

    const runs = await shared.apps[2]!.app.linkd.scheduler.status()
    expect(runs.find((r) => r.name === 'expire-keys')?.runCount).toBe(2)
  })

  it('every job of the schedule runs once per minute across the three', async () => {
    shared = await createSharedApps(3)
    const names = shared.apps[0]!.app.linkd.scheduler.names()
    for (let minute = 0; minute < 3; minute++) {
      setClocks(Date.parse('2026-11-21T11:00:00.000Z') + minute * MINUTE + 30_000)
      const results = await Promise.all(
        shared.apps.flatMap((a) => names.map((name) => a.app.linkd.scheduler.runScheduled(name))),
      )
      expect(ranCount(results)).toBe(names.length)
    }
    const runs = await shared.apps[1]!.app.linkd.scheduler.status()
    expect(runs.map((r) => r.runCount)).toEqual(names.map(() => 3))
  })

  it('a manual run does not wait for the minute; a scheduled one after it in that minute is skipped', async () => {
    shared = await createSharedApps(2)
    const [a, b] = shared.apps
    setClocks(Date.parse('2026-11-21T12:00:10.000Z'))
    expect((await a!.app.linkd.scheduler.runNow('expire-links')).ran).toBe(true)
    expect((await b!.app.linkd.scheduler.runNow('expire-links')).ran).toBe(true)
    expect((await b!.app.linkd.scheduler.runScheduled('expire-links')).ran).toBe(false)
    setClocks(Date.parse('2026-11-21T12:01:00.000Z'))
    expect((await b!.app.linkd.scheduler.runScheduled('expire-links')).ran).toBe(true)
  })
})

import type { FastifyInstance } from 'fastify'
import { createTestApp, type TestApp } from './app.js'
import type { FakeClock } from './clock.js'

export interface TestDaemon {
  url: string
  ownerKey: string
  app: FastifyInstance
  clock: FakeClock
  testApp: TestApp
  close(): Promise<void>
}

/** The real app (in-memory SQLite, fake clock) listening on a free loopback port. */
export async function startTestDaemon(overrides: Record<string, unknown> = {}): Promise<TestDaemon> {
  const t = await createTestApp(overrides)
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 })
  return {
    url: address,
    ownerKey: t.ownerKey,
    app: t.app,
    clock: t.clock,
    testApp: t,
    close: () => t.close(),
  }
}

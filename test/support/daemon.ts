import type { FastifyInstance } from 'fastify'
import { createTestApp, type TestApp } from './app.js'
import { freePort } from './processes.js'
import type { FakeClock } from './clock.js'

export interface TestDaemon {
  url: string
  ownerKey: string
  app: FastifyInstance
  clock: FakeClock
  testApp: TestApp
  close(): Promise<void>
}

/**
 * The real app (in-memory SQLite, fake clock) listening on a free loopback port; its public URL
 * (and so short URLs and the short domain) names that port.
 */
export async function startTestDaemon(overrides: Record<string, unknown> = {}): Promise<TestDaemon> {
  const port = await freePort()
  const t = await createTestApp({ port, publicUrl: `http://127.0.0.1:${port}`, ...overrides })
  const address = await t.app.listen({ host: '127.0.0.1', port })
  return {
    url: address,
    ownerKey: t.ownerKey,
    app: t.app,
    clock: t.clock,
    testApp: t,
    close: () => t.close(),
  }
}

/**
 * The TUI against a real linkd: a listening test daemon per test file, an organization of its own
 * per test, and the TUI's LinkdClient (that organization's owner key unless told) with what the
 * TUI asked of it recorded. The TUI's clock starts at the daemon's time and moves when the test says.
 */
import { afterAll, beforeAll } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { LinkdClient } from '../../src/client/index.js'
import type { AppProps } from '../../src/tui/app.js'
import type { TuiClient } from '../../src/tui/api.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { renderTui, type Rendered } from './harness.js'
import { ManualClock } from './manual-clock.js'

/** Starts a daemon for the file's tests (closed after them); call the result in a test to get it. */
export function useDaemon(overrides: Record<string, unknown> = {}): () => TestDaemon {
  let d: TestDaemon | undefined
  beforeAll(async () => {
    d = await startTestDaemon(overrides)
  })
  afterAll(async () => {
    cleanup()
    await d?.close()
  })
  return () => d!
}

export interface Org {
  orgId: string
  ownerKey: string
  /** The organization's API with its owner key: the test's own set-up and look-ups. */
  api: LinkdClient
}

let orgs = 0

/** A new organization on the daemon: each test sees only what it made. */
export async function newOrg(d: TestDaemon): Promise<Org> {
  const { orgId, ownerKey } = await d.testApp.createOrg(`tui-${++orgs}`)
  return { orgId, ownerKey, api: new LinkdClient({ baseUrl: d.url, apiKey: ownerKey }) }
}

/** One call the TUI made on its client: `links.update` and its arguments. */
export interface Call {
  name: string
  args: unknown[]
  /** Its answer (or error) has come back. */
  settled: boolean
}

/** `client` with each call recorded in `calls` before it goes to the daemon. */
export function recorded(client: LinkdClient): { client: TuiClient; calls: Call[] } {
  const calls: Call[] = []
  const call =
    (name: string, fn: (...args: unknown[]) => unknown, self: object) =>
    (...args: unknown[]) => {
      const c: Call = { name, args, settled: false }
      calls.push(c)
      const result = fn.apply(self, args)
      if (result instanceof Promise)
        void result.then(
          () => (c.settled = true),
          () => (c.settled = true),
        )
      else c.settled = true
      return result
    }
  const group = (name: string, api: object) =>
    new Proxy(api, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver)
        return typeof value === 'function'
          ? call(`${name}.${String(key)}`, value as (...args: unknown[]) => unknown, target)
          : value
      },
    })
  const proxy = new Proxy(client, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver)
      if (typeof value === 'function') return call(String(key), value as (...a: unknown[]) => unknown, target)
      if (typeof value === 'object' && value !== null) return group(String(key), value)
      return value
    },
  })
  return { client: proxy, calls }
}

export type OnDaemon = Rendered<TuiClient> & {
  calls: Call[]
  /** The arguments of each call `name` (e.g. `links.update`) the TUI made, in order. */
  sent(name: string): unknown[][]
}

/** The TUI on `d` with `key` (an organization's owner key, a narrower key of it). */
export function renderOnDaemon(
  d: TestDaemon,
  key: string,
  opts: Partial<Omit<AppProps, 'client' | 'clock'>> = {},
): OnDaemon {
  const { client, calls } = recorded(new LinkdClient({ baseUrl: d.url, apiKey: key }))
  const app = renderTui({ url: d.url, ...opts, client, clock: new ManualClock(d.clock.now()) })
  return Object.assign(app, {
    calls,
    sent: (name: string) => calls.filter((c) => c.name === name).map((c) => c.args),
  })
}

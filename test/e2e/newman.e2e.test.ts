/**
 * The Postman collection served by a fresh built `linkd`, run as is by newman (Postman's runner)
 * with only the variables it declares filled in: every request is sent and none answers 5xx.
 * Requests naming an id that does not exist answer 404; that is fine.
 */
import { createRequire } from 'node:module'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLinkd, type RunningLinkd } from '../support/processes.js'

interface Execution {
  item: { name: string }
  request: { method: string; url: { toString(): string } }
  response?: { code: number }
  requestError?: Error
}
interface Summary {
  run: { executions: Execution[]; failures: Array<{ error: Error; source?: { name?: string } }> }
}
interface Newman {
  run(
    options: {
      collection: unknown
      envVar: Array<{ key: string; value: string }>
      reporters: string[]
      timeoutRequest: number
    },
    cb: (err: Error | null, summary: Summary) => void,
  ): void
}
interface Collection {
  variable?: Array<{ key: string; value?: string }>
  item: Array<{ item?: unknown[]; request?: unknown }>
}

const newman = createRequire(import.meta.url)('newman') as Newman

let daemon: RunningLinkd
let work = ''

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'linkd-newman-e2e-'))
  daemon = await startLinkd(join(work, 'data'))
}, 60_000)

afterAll(async () => {
  if (daemon) await daemon.stop('SIGKILL')
  if (work) rmSync(work, { recursive: true, force: true })
})

interface PostmanRequest {
  url?: { path?: string[] }
  body?: { raw?: string }
}
const requests = (items: Collection['item']): PostmanRequest[] =>
  items.flatMap((i) =>
    i.item ? requests(i.item as Collection['item']) : i.request ? [i.request as PostmanRequest] : [],
  )

describe('the Postman collection against a fresh daemon', () => {
  it('newman runs every request with no 5xx', async () => {
    const ownerKey = daemon.ownerKey() ?? ''
    expect(ownerKey).not.toBe('')
    const collection = (await (
      await fetch(`${daemon.url}/docs/postman/collection.json`)
    ).json()) as Collection
    // A game, so that the ingestion request has an SDK key to send.
    const game = (await (
      await fetch(`${daemon.url}/api/v1/admin/games`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Newman Game', platform: 'web' }),
      })
    ).json()) as { id: string; sdkKey: string; organizationId: string }
    const values: Record<string, string> = {
      bearerToken: ownerKey,
      sdkKey: game.sdkKey,
      gameId: game.id,
      organizationId: game.organizationId,
    }
    // Only variables the collection declares are filled in; baseUrl is already the daemon's.
    const declared = (collection.variable ?? []).map((v) => v.key)
    expect(declared).toEqual(expect.arrayContaining(['baseUrl', ...Object.keys(values)]))
    expect(collection.variable!.find((v) => v.key === 'baseUrl')?.value).toBe(daemon.url)

    // The ingestion batch gets fresh ids and the time of sending, so that the collection stays
    // valid however long after it was fetched it runs.
    const ingestion = requests(collection.item).find((r) => r.url?.path?.join('/') === 'api/v1/gaming/events')
      ?.body?.raw
    expect(ingestion).toBeDefined()
    expect(ingestion).toContain('{{$isoTimestamp}}')
    expect(ingestion).toContain('{{$guid}}')
    expect(ingestion).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/)

    const summary = await new Promise<Summary>((resolve, reject) =>
      newman.run(
        {
          collection,
          envVar: Object.entries(values).map(([key, value]) => ({ key, value })),
          reporters: [],
          timeoutRequest: 20_000,
        },
        (err, s) => (err ? reject(err) : resolve(s)),
      ),
    )
    const executions = summary.run.executions
    expect(executions.length).toBe(requests(collection.item).length)
    const line = (e: Execution) =>
      `${e.response?.code ?? e.requestError?.message} ${e.request.method} ${e.request.url.toString()}`
    const tally = new Map<number, number>()
    for (const e of executions) tally.set(e.response?.code ?? 0, (tally.get(e.response?.code ?? 0) ?? 0) + 1)
    console.log(
      `newman: ${executions.length} requests; statuses ${JSON.stringify(Object.fromEntries(tally))}`,
    )

    expect(executions.filter((e) => !e.response).map(line)).toEqual([])
    expect(executions.filter((e) => e.response!.code >= 500).map(line)).toEqual([])
    expect(summary.run.failures.map((f) => `${f.source?.name ?? ''}: ${f.error.message}`)).toEqual([])
    // The variables were used: authenticated requests and the ingestion succeeded.
    const status = (method: string, path: string) =>
      executions
        .filter((e) => e.request.method === method && new URL(e.request.url.toString()).pathname === path)
        .map((e) => e.response!.code)
    expect(status('GET', '/api/keys')).toEqual([200])
    expect(status('POST', '/api/keys')).toEqual([201])
    expect(status('POST', '/api/use/links')).toEqual([201])
    expect(status('POST', '/api/v1/gaming/events')).toEqual([202])
  }, 60_000)
})

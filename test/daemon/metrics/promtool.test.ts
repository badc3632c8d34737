/**
 * A real scrape of GET /metrics, after traffic that creates the labelled series (a redirect, an
 * ingestion batch with a refused event, a webhook delivery, a job run), passes
 * `promtool check metrics` (Debian's prometheus package): names, types, help, histogram shape.
 */
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findBinary, missingBinaries } from '../../support/binaries.js'
import { families, sample, scrapeAfterTraffic } from '../../support/metrics.js'

const skip = missingBinaries('promtool')

function promtool(text: string): { status: number | null; output: string } {
  const r = spawnSync(findBinary('promtool')!, ['check', 'metrics'], { input: text, encoding: 'utf8' })
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() }
}

describe.skipIf(skip)('promtool check metrics', () => {
  let scraped: Awaited<ReturnType<typeof scrapeAfterTraffic>> | undefined
  let text: string
  beforeAll(async () => {
    scraped = await scrapeAfterTraffic()
    text = scraped.text
  })
  afterAll(() => scraped?.close())

  it('accepts a real scrape without a complaint: exit 0, nothing said', () => {
    expect(sample(text, 'linkd_redirects_total')).toBe(1)
    expect(sample(text, 'linkd_webhook_attempts_total', { outcome: 'success' })).toBe(1)
    expect(sample(text, 'linkd_ingest_events_rejected_total', { reason: 'InvalidEvent' })).toBe(1)
    expect(families(text).get('linkd_http_request_duration_seconds')).toBe('histogram')
    // Node's per-type process gauges are there (their _total twins are gauges promtool refuses).
    expect(families(text).get('linkd_nodejs_active_handles')).toBe('gauge')
    const r = promtool(text)
    expect(r.output).toBe('')
    expect(r.status).toBe(0)
  })

  it('would catch a malformed exposition', () => {
    const broken = `${text}# TYPE linkd_broken counter\nlinkd_broken{route="/x" 1\n`
    expect(promtool(broken).status).toBe(1)
    const lint = `${text}# HELP linkd_bad_total x\n# TYPE linkd_bad_total gauge\nlinkd_bad_total 1\n`
    expect(promtool(lint).output).toContain('linkd_bad_total non-counter')
  })
})

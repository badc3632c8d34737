/**
 * docs/grafana/linkd.json names only metrics a real scrape has: every panel query's metric names
 * (a histogram's through its _bucket, _sum and _count series) are checked against the families
 * of a scrape after real traffic; with promtool present, every query must also parse.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findBinary, missingBinaries } from '../../support/binaries.js'
import { families, scrapeAfterTraffic } from '../../support/metrics.js'
import { root } from '../../support/processes.js'

interface Panel {
  title: string
  targets?: Array<{ expr: string }>
}
const dashboard = JSON.parse(readFileSync(join(root, 'docs/grafana/linkd.json'), 'utf8')) as {
  panels: Panel[]
}
const exprs = dashboard.panels.flatMap((p) =>
  (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })),
)

const KEYWORDS = new Set(['bool', 'and', 'or', 'unless', 'offset'])

/** The metric names a PromQL expression selects: identifiers that are not functions, labels or keywords. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // strings
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // ranges
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '') // label lists
  const names = [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)]
    .filter((m) => !/^\s*\(/.test(bare.slice(m.index + m[0].length))) // functions and aggregations
    .map((m) => m[0])
  return [...new Set(names.filter((n) => !KEYWORDS.has(n) && !/^(inf|nan)$/i.test(n)))]
}

/** The series names a scrape has: each family's, and a histogram's _bucket, _sum and _count. */
function seriesNames(text: string): Set<string> {
  const out = new Set<string>()
  for (const [name, type] of families(text)) {
    out.add(name)
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) out.add(name + s)
    if (type === 'summary') for (const s of ['_sum', '_count']) out.add(name + s)
  }
  return out
}

describe('docs/grafana/linkd.json', () => {
  let scraped: Awaited<ReturnType<typeof scrapeAfterTraffic>> | undefined
  beforeAll(async () => {
    scraped = await scrapeAfterTraffic()
  })
  afterAll(() => scraped?.close())

  it('has panels with queries, each naming metrics', () => {
    expect(exprs.length).toBeGreaterThanOrEqual(10)
    for (const e of exprs) expect(metricNames(e.expr), `${e.panel}: ${e.expr}`).not.toEqual([])
  })

  it('names only metrics a real scrape has', () => {
    const have = seriesNames(scraped!.text)
    const unknown = exprs.flatMap((e) =>
      metricNames(e.expr)
        .filter((n) => !have.has(n))
        .map((n) => `${e.panel}: ${n}`),
    )
    expect(unknown).toEqual([])
  })

  it('finds the metric names of a query (and would catch a misspelt one)', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (route, le) (rate(linkd_http_request_duration_seconds_bucket{route!=""}[5m])))',
      ),
    ).toEqual(['linkd_http_request_duration_seconds_bucket'])
    expect(metricNames('(time() - linkd_job_last_success_timestamp_seconds) / 3600')).toEqual([
      'linkd_job_last_success_timestamp_seconds',
    ])
    expect(seriesNames(scraped!.text).has('linkd_http_requests')).toBe(false)
  })

  it.skipIf(missingBinaries('promtool'))('every query parses (promtool check rules)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkd-grafana-'))
    try {
      const rules = exprs.map(
        (e, i) => `      - record: linkd:panel_${i}\n        expr: ${JSON.stringify(e.expr)}`,
      )
      const file = join(dir, 'rules.yml')
      writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`)
      const r = spawnSync(findBinary('promtool')!, ['check', 'rules', file], { encoding: 'utf8' })
      expect(r.status, `${r.stdout}${r.stderr}`).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

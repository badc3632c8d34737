/**
 * Independent OpenAPI linters on the served document: Spectral with
 * `spectral:oas` and Redocly with `recommended` report no error, before and after the Postman
 * collection is built from it. Warnings are allowed and printed. Configuration (and any rule
 * exception, each with its reason): test/daemon/openapi/spectral.yaml and redocly.yaml.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { cleanEnv, root } from '../../support/processes.js'

const BIN = join(root, 'node_modules/.bin')
const CONFIG = join(root, 'test/daemon/openapi')

interface Problem {
  tool: string
  file: string
  severity: 'error' | 'warning' | 'info'
  rule: string
  where: string
  message: string
}

function run(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      join(BIN, bin),
      args,
      {
        env: cleanEnv({ REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }),
        maxBuffer: 64 * 1024 * 1024,
        timeout: 60_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    )
  })
}

/** The JSON report on stdout (the CLIs may print notices around it). */
function parseReport<T>(stdout: string, open: '[' | '{'): T {
  const start = stdout.indexOf(open)
  if (start < 0) throw new Error(`no JSON report in:\n${stdout.slice(0, 2000)}`)
  return JSON.parse(stdout.slice(start)) as T
}

async function spectral(files: string[]): Promise<Problem[]> {
  const r = await run('spectral', [
    'lint',
    '--ruleset',
    join(CONFIG, 'spectral.yaml'),
    '--format',
    'json',
    '--fail-severity',
    'error',
    ...files,
  ])
  const report = parseReport<
    Array<{ code: string; message: string; severity: number; path: string[]; source: string }>
  >(r.stdout, '[')
  return report.map((p) => ({
    tool: 'spectral',
    file: p.source,
    severity: (['error', 'warning', 'info', 'info'] as const)[p.severity] ?? 'info',
    rule: p.code,
    where: p.path.join('.'),
    message: p.message,
  }))
}

async function redocly(files: string[]): Promise<Problem[]> {
  const r = await run('redocly', [
    'lint',
    '--config',
    join(CONFIG, 'redocly.yaml'),
    '--format',
    'json',
    '--max-problems',
    '10000',
    ...files,
  ])
  // One JSON report per file, one after the other.
  const reports = parseReport<
    Array<{
      problems: Array<{
        ruleId: string
        severity: string
        message: string
        location: Array<{ source: { ref: string }; pointer: string }>
      }>
    }>
  >(`[${r.stdout.slice(r.stdout.indexOf('{')).replace(/\n\}\{/g, '\n},{')}]`, '[')
  expect(reports.length).toBe(files.length)
  return reports
    .flatMap((report) => report.problems)
    .map((p) => ({
      tool: 'redocly',
      file: p.location[0]?.source.ref ?? '',
      severity: p.severity === 'error' ? 'error' : p.severity === 'warn' ? 'warning' : 'info',
      rule: p.ruleId,
      where: p.location[0]?.pointer ?? '',
      message: p.message,
    }))
}

function summary(problems: Problem[]): string {
  const counts = new Map<string, number>()
  for (const p of problems) {
    const k = `${p.tool} ${p.severity} ${p.rule}`
    counts.set(k, (counts.get(k) ?? 0) + 1)
  }
  return [...counts].map(([k, n]) => `  ${k}: ${n}`).join('\n')
}

describe('OpenAPI linters on the served document', () => {
  let t: TestApp
  let dir = ''
  const files: string[] = []
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkd-openapi-'))
    t = await createTestApp({ publicUrl: 'https://links.linkd.test' })
    const fetchDoc = async (name: string) => {
      const res = await t.call('GET', '/api/docs/openapi.json', { key: null })
      expect(res.statusCode).toBe(200)
      const file = join(dir, name)
      writeFileSync(file, res.body)
      files.push(file)
    }
    await fetchDoc('before-collection.json')
    expect((await t.call('GET', '/docs/postman/collection.json', { key: null })).statusCode).toBe(200)
    await fetchDoc('after-collection.json')
  })
  afterAll(async () => {
    await t?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it(
    'spectral (spectral:oas) and redocly (recommended) report 0 errors, before and after the collection',
    { timeout: 120_000 },
    async () => {
      // A broken document next to the served ones: proof that both tools ran and can fail.
      const broken = join(dir, 'broken.json')
      writeFileSync(broken, JSON.stringify({ openapi: '3.0.3', info: {}, paths: { '/x': { get: {} } } }))
      const [s, r] = await Promise.all([spectral([...files, broken]), redocly([...files, broken])])
      const name = (p: Problem) => p.file.split('/').pop()!
      for (const tool of [s, r])
        expect(tool.some((p) => name(p) === 'broken.json' && p.severity === 'error')).toBe(true)
      const problems = [...s, ...r].filter((p) => name(p) !== 'broken.json')
      if (problems.length) console.log(`OpenAPI lint warnings and notes:\n${summary(problems)}`)
      const errors = problems.filter((p) => p.severity === 'error')
      const listed = errors.slice(0, 40).map((e) => `${e.tool} ${e.rule} ${name(e)} ${e.where}: ${e.message}`)
      expect(errors.length, `${errors.length} lint errors, the first:\n${listed.join('\n')}`).toBe(0)
    },
  )
})

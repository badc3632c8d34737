/**
 * linkd's logs, on the built binary: JSON lines when stdout is not a terminal,
 * readable lines with LINKD_LOG_FORMAT=pretty (the default on a terminal), and health probes
 * logged at debug, never at info.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { prettyLine, usePretty } from '../../daemon/log-format.js'
import { findBinary } from '../support/binaries.js'
import { cleanEnv, freePort, LINKD, startLinkd } from '../support/processes.js'

const work = mkdtempSync(join(tmpdir(), 'linkd-logs-e2e-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** Starts linkd, asks /api/use and the three health probes, stops it; returns what it printed. */
async function logsOf(name: string, env: Record<string, string>): Promise<string> {
  const linkd = await startLinkd(join(work, name), env)
  for (const path of ['/api/use', '/health', '/health/live', '/health/ready?x=1'])
    expect((await fetch(`${linkd.url}${path}`)).status).toBe(200)
  await linkd.stop()
  return linkd.output()
}

describe('linkd logs', () => {
  it('piped: JSON lines by default, one per request; health probes are not logged at info', async () => {
    const out = await logsOf('json', { LINKD_LOG_LEVEL: 'info' })
    const entries = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; level: number; req?: { url: string } })
    expect(entries.find((e) => e.msg === 'linkd ready')).toBeDefined()
    const urls = entries.filter((e) => e.req).map((e) => e.req!.url)
    expect(urls.filter((u) => u === '/api/use')).toHaveLength(1)
    expect(entries.filter((e) => e.req).map((e) => e.msg)).toEqual(urls.map(() => 'request completed'))
    expect(urls.filter((u) => u.startsWith('/health/ready') && u !== '/health/ready')).toEqual([])
    // The start-up poll of /health/ready and the probes above: none at info.
    expect(urls.filter((u) => u.startsWith('/health'))).toEqual([])
  })

  it('LINKD_LOG_FORMAT=pretty: one readable line per entry; at debug the probes appear as DEBUG', async () => {
    const out = await logsOf('pretty', { LINKD_LOG_LEVEL: 'debug', LINKD_LOG_FORMAT: 'pretty' })
    const lines = out.split('\n')
    expect(lines.filter((l) => l.startsWith('{'))).toEqual([])
    expect(out).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} INFO {2}linkd ready .*version=/m)
    // One line per request: method, path, status, time, then the host, client and request id.
    expect(out).not.toMatch(/incoming request/)
    expect(out).toMatch(
      /^\d{2}:\d{2}:\d{2}\.\d{3} INFO {2}request completed GET \/api\/use 200 \d+\.\dms reqId=/m,
    )
    expect(out).not.toMatch(/Deprecation/)
    expect(out).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} DEBUG request completed GET \/health\/live 200 /m)
    expect(out).not.toMatch(/INFO {2}request completed GET \/health/)
    // Not a terminal: no colour even when forced pretty.
    expect(out).not.toContain('\u001b[')
  })

  it.skipIf(!findBinary('script'))(
    'on a terminal (a pty from script(1)): readable, coloured lines by default',
    async () => {
      const port = await freePort()
      // script(1) gives linkd a pseudo-terminal as stdout; its own process group is ended after.
      const child = spawn('script', ['-qfec', `${process.execPath} ${LINKD}`, '/dev/null'], {
        env: cleanEnv({
          LINKD_DATA_DIR: join(work, 'tty'),
          LINKD_PORT: String(port),
          LINKD_HOST: '127.0.0.1',
        }),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      })
      let out = ''
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString()
          if (out.includes('linkd ready')) resolve()
        })
        child.once('exit', () => reject(new Error(`linkd under script exited:\n${out}`)))
      })
      const exited = new Promise((resolve) => child.once('exit', resolve))
      process.kill(-child.pid!, 'SIGTERM')
      await exited
      expect(out).toContain('\u001b[32mINFO \u001b[0m linkd ready ')
      expect(out).not.toMatch(/"level":/)
    },
  )

  it('LINKD_LOG_FORMAT=json keeps JSON; auto is pretty only on a terminal', () => {
    expect(usePretty('auto', true)).toBe(true)
    expect(usePretty('auto', false)).toBe(false)
    expect(usePretty('json', true)).toBe(false)
    expect(usePretty('pretty', false)).toBe(true)
    const line = prettyLine(
      JSON.stringify({
        level: 50,
        time: 0,
        msg: 'flush failed',
        err: { type: 'Error', message: 'disk full' },
      }),
      false,
    )
    expect(line).toBe('00:00:00.000 ERROR flush failed Error: disk full\n')
  })
})

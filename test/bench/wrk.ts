import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { AutocannonOptions, AutocannonResult } from './autocannon.js'

const run = promisify(execFile)

/** Whether wrk (Debian package `wrk`) is on the PATH. */
export async function hasWrk(): Promise<boolean> {
  try {
    await run('wrk', ['--version'])
    return true
  } catch (err) {
    // wrk --version prints its banner and exits 1.
    return (err as { stdout?: string }).stdout?.startsWith('wrk ') ?? false
  }
}

/** wrk's latency in ms, to the µs (0.819, not 0.8190000000000001). */
const ms = (value: string, unit: string) =>
  Math.round(Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? NaN) * 1000) / 1000

/**
 * The same load as `autocannon()` from wrk, one client thread (BENCH_WRK_THREADS to change): a C
 * client leaves the two cores here to the server far more than autocannon (JavaScript, in the
 * benchmark's own process) does.
 * Answers in autocannon's shape; wrk does not split 3xx from 2xx, so every 2xx/3xx response counts
 * under `okStatus`.
 */
export async function wrk(opts: AutocannonOptions & { okStatus: number }): Promise<AutocannonResult> {
  const headers = Object.entries(opts.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`])
  const { stdout } = await run(
    'wrk',
    [
      `-t${process.env.BENCH_WRK_THREADS ?? 1}`,
      `-c${opts.connections}`,
      `-d${opts.duration}s`,
      '--latency',
      ...headers,
      opts.url,
    ],
    { maxBuffer: 1 << 20 },
  )
  const latency = (p: number) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)$`, 'm').exec(stdout)
    if (!m) throw new Error(`wrk: no ${p}% latency in:\n${stdout}`)
    return ms(m[1]!, m[2]!)
  }
  const total = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN)
  const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0)
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout)
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN)
  return {
    // wrk stops with up to one request in flight per connection, which the server may still answer.
    requests: { average: perSecond, p50: perSecond, p99: perSecond, total, sent: total + opts.connections },
    latency: { average: latency(50), p50: latency(50), p99: latency(99), total },
    errors: errors ? Number(errors[1]) + Number(errors[2]) + Number(errors[3]) : 0,
    timeouts: errors ? Number(errors[4]) : 0,
    non2xx: bad,
    statusCodeStats: { [String(opts.okStatus)]: { count: total - bad } },
  }
}

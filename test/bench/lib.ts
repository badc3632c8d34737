import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'

export { freePort } from '../support/processes.js'

/** Shared helpers of the benchmarks: timing whole commands, spawning daemons, reading RSS. */

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

/** Median wall time (ms) of running a command `runs` times, after one warm-up run. */
export function timeCommand(
  cmd: string,
  args: string[],
  runs: number,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const times: number[] = []
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now()
    const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    const dt = performance.now() - t0
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr.toString()}`)
    if (i > 0) times.push(dt)
  }
  return median(times)
}

/** Spawns a server and resolves once `url` answers 200, with the elapsed ms since spawn. */
export async function spawnUntilReady(
  cmd: string,
  args: string[],
  url: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; readyMs: number }> {
  const t0 = performance.now()
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  child.stdout?.resume()
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${cmd} exited early: ${stderr}`)
    try {
      const res = await fetch(url)
      if (res.status === 200) return { child, readyMs: performance.now() - t0 }
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > 20_000) throw new Error(`${url} not ready after 20 s: ${stderr}`)
    await new Promise((r) => setTimeout(r, 2))
  }
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return kb / 1024
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits)

export function report(name: string, rows: Array<[string, string]>): void {
  process.stdout.write(`\n## ${name}\n`)
  for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(44)} ${v}\n`)
}

/**
 * CPU time (user + system, ms) a process has used so far, all its threads, or one thread of it
 * (`thread`: its id; the process's own id is its main thread), from /proc (Linux).
 */
export function cpuMs(pid: number, thread?: number): number {
  const stat = readFileSync(
    thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`,
    'utf8',
  )
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** Bytes a process has had written to storage so far (its threads' too), from /proc (Linux). */
export function diskWrites(pid: number): number {
  return Number(/^write_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN)
}

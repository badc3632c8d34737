import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { packageRoot } from '../../src/version.js'
import { freePort } from './ports.js'
import { createTestDatabase, onPostgres } from './postgres.js'

export { freePort }

/** Spawning the built `linkd` and `linkctl` binaries (e2e tests and benchmarks). */

export const root = packageRoot()
/**
 * The programs under test: the checkout's, or with LINKD_TEST_INSTALL_PREFIX those of a global
 * install into that prefix (.ci/global-install runs e2e tests against one).
 */
const installed = process.env.LINKD_TEST_INSTALL_PREFIX
const programs = installed ? join(installed, 'lib/node_modules/linkd') : root
export const LINKD = join(programs, 'bin/linkd.js')
export const LINKCTL = join(programs, 'bin/linkctl.js')
/** With LINKD_TEST_BINARY, the single executable (`npm run build:binary`) startLinkd runs instead. */
export const BINARY = process.env.LINKD_TEST_BINARY ? resolve(process.env.LINKD_TEST_BINARY) : undefined
export const OWNER_KEY_RE = /lk_live_[A-Za-z0-9]{32}/

/** The environment without the developer's own LINKCTL_* / LINKD_* settings. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env))
    if (!/^(LINKCTL_|LINKD_|NO_COLOR|NEXT_PUBLIC_FEATURE_)/.test(k)) env[k] = v
  return { ...env, ...extra }
}

export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * Under `npm run test:pg`, each linkd data directory gets its own PostgreSQL database (created on
 * first use, cloned from the migrated template): every linkd process and offline subcommand on
 * that directory uses it through LINKD_DATABASE_URL, so a restarted linkd finds its data again.
 * The directory keeps linkd's files (the master key). Dropped by `dropDatabaseOf` or at the end
 * of the test file.
 */
const databases = new Map<string, Promise<{ url: string; drop(): Promise<void> }>>()

async function databaseEnv(
  env: Record<string, string>,
  dataDir = env.LINKD_DATA_DIR,
): Promise<Record<string, string>> {
  if (!onPostgres || env.LINKD_DATABASE_URL || !dataDir) return {}
  const key = resolve(dataDir)
  let database = databases.get(key)
  if (!database) databases.set(key, (database = createTestDatabase()))
  return { LINKD_DATABASE_URL: (await database).url }
}

/** The database a linkd on `dataDir` uses: its own PostgreSQL database under test:pg, else linkd.db. */
export async function databaseUrlOf(dataDir: string): Promise<string> {
  return (await databaseEnv({}, dataDir)).LINKD_DATABASE_URL ?? `sqlite:${join(resolve(dataDir), 'linkd.db')}`
}

/** Drops the PostgreSQL database of a data directory (test:pg), if it has one. */
export async function dropDatabaseOf(dataDir: string): Promise<void> {
  const key = resolve(dataDir)
  const database = databases.get(key)
  databases.delete(key)
  if (database) await (await database).drop()
}

if (onPostgres && process.env.VITEST) {
  const { afterAll } = await import('vitest')
  afterAll(async () => {
    for (const dataDir of [...databases.keys()]) await dropDatabaseOf(dataDir)
  })
}

/** Runs a built binary to completion (on PostgreSQL under test:pg: see `databaseEnv`). */
export async function runBin(
  bin: string,
  args: string[],
  env: Record<string, string> = {},
  /** Written to the program's stdin, which is then closed. */
  input?: string,
): Promise<RunResult> {
  const database = bin === LINKD ? await databaseEnv(env) : {}
  return runProgram(process.execPath, [bin, ...args], { ...database, ...env }, input)
}

/** Runs any program to completion (a system binary: nginx, caddy), with `env` over a clean one. */
export function runProgram(
  program: string,
  args: string[],
  env: Record<string, string> = {},
  input?: string,
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(program, args, { env: cleanEnv(env), timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err && typeof err.code === 'number' ? err.code : err ? 1 : 0
      // Killed by the timeout or a signal, or not started: say so, or a failure reads as a silent exit 1.
      const why =
        err && typeof err.code !== 'number'
          ? `\n[runProgram: ${err.message}; signal ${err.signal ?? 'none'}]`
          : ''
      resolve({ code, stdout, stderr: stderr + why })
    })
    if (input !== undefined) child.stdin?.end(input)
  })
}

export interface RunningLinkd {
  child: ChildProcess
  url: string
  /** Everything printed so far (stdout and stderr). */
  output(): string
  /** The owner key printed on first start, if any. */
  ownerKey(): string | undefined
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/**
 * Starts the built daemon and waits until GET /health/ready answers 200: on `env.LINKD_PORT` when
 * given (a port another process must know in advance), otherwise on a free port.
 */
export async function startLinkd(
  dataDir: string,
  env: Record<string, string> = {},
  /** Options for node itself (e.g. --cpu-prof, which NODE_OPTIONS does not allow). */
  nodeArgs: string[] = [],
  /** A program linkd runs under, with its arguments (e.g. strace …): it gets linkd's command line. */
  wrapper: string[] = [],
): Promise<RunningLinkd> {
  const port = env.LINKD_PORT ? Number(env.LINKD_PORT) : await freePort()
  const database = await databaseEnv(env, env.LINKD_DATA_DIR ?? dataDir)
  const [linkd, linkdArgs] = BINARY ? [BINARY, []] : [process.execPath, [...nodeArgs, LINKD]]
  const [program, args] = wrapper.length
    ? [wrapper[0]!, [...wrapper.slice(1), linkd, ...linkdArgs]]
    : [linkd, linkdArgs]
  const child = spawn(program, args, {
    env: cleanEnv({
      LINKD_HOST: '127.0.0.1',
      LINKD_DATA_DIR: dataDir,
      LINKD_LOG_LEVEL: 'warn',
      ...database,
      ...env,
      LINKD_PORT: String(port),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()))
  const url = `http://127.0.0.1:${port}`
  const until = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`linkd exited (${child.exitCode}) before ready:\n${out}`)
    if (Date.now() > until) throw new Error(`linkd not ready after 30 s:\n${out}`)
    try {
      if ((await fetch(`${url}/health/ready`)).status === 200) break
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25))
  }
  return {
    child,
    url,
    output: () => out,
    ownerKey: () => OWNER_KEY_RE.exec(out)?.[0],
    stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return Promise.resolve(child.exitCode)
      return new Promise((resolve) => {
        child.once('exit', (code) => resolve(code))
        child.kill(signal)
      })
    },
  }
}

/** A linkd on a fresh work directory, and what linkctl needs to use it with the owner key. */
export interface LinkdForCli {
  daemon: RunningLinkd
  /** The work directory: linkd's data in `data/`, linkctl's configuration in `config/`. */
  work: string
  /** LINKCTL_URL, LINKCTL_API_KEY (the owner key) and LINKCTL_CONFIG_DIR. */
  env: Record<string, string>
  /** Runs the built linkctl with `env` (and `extra` over it). */
  linkctl(args: string[], extra?: Record<string, string>, input?: string): Promise<RunResult>
  /** Stops linkd (SIGKILL unless told) and removes the work directory. */
  close(signal?: NodeJS.Signals): Promise<void>
}

/**
 * The set-up of the end-to-end tests: the built linkd on a temporary directory (and, under
 * test:pg, its own PostgreSQL database, dropped by `close`), and linkctl for it.
 */
export async function startLinkdForCli(
  prefix: string,
  linkdEnv: Record<string, string> = {},
): Promise<LinkdForCli> {
  const work = mkdtempSync(join(tmpdir(), prefix))
  const daemon = await startLinkd(join(work, 'data'), linkdEnv)
  const env = {
    LINKCTL_URL: daemon.url,
    LINKCTL_API_KEY: daemon.ownerKey() ?? '',
    LINKCTL_CONFIG_DIR: join(work, 'config'),
  }
  return {
    daemon,
    work,
    env,
    linkctl: (args, extra = {}, input?: string) => runBin(LINKCTL, args, { ...env, ...extra }, input),
    async close(signal = 'SIGKILL') {
      await daemon.stop(signal)
      await dropDatabaseOf(join(work, 'data'))
      rmSync(work, { recursive: true, force: true })
    },
  }
}

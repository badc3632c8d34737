/**
 * The context a command runs with: output streams, TTY facts, the resolved target (url, key,
 * profile) and a lazily created client. Light at import time: conf and the client load on first use.
 */
import type { Command } from 'commander'
import type { LinkdClient } from '../client/index.js'
import type { ProfileStore } from './profiles.js'
import { blockedPort } from '../contract/blocked-ports.js'
import { CliError, UsageError } from './exit-codes.js'
import type { Prompter } from './prompt.js'

export const DEFAULT_URL = 'http://127.0.0.1:8080'
export const DEFAULT_PROFILE = 'default'

export interface Writer {
  write(chunk: string | Uint8Array): unknown
  isTTY?: boolean | undefined
  /** Terminal width, when a terminal. */
  columns?: number | undefined
}

/** The process's streams and environment; tests pass their own. */
export interface Io {
  stdout: Writer
  stderr: Writer
  stdin: NodeJS.ReadableStream & { isTTY?: boolean | undefined }
  env: NodeJS.ProcessEnv
}

export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }
}

/** Global flags (`--url`, `--api-key`, `--profile`). */
export interface GlobalFlags {
  url?: string | undefined
  apiKey?: string | undefined
  profile?: string | undefined
}

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'none'

export interface Target {
  url: string
  apiKey: string | undefined
  profile: string
  sources: { url: Source; apiKey: Source; profile: Source }
}

export interface Ctx {
  stdout: Writer
  stderr: Writer
  stdin: Io['stdin']
  env: NodeJS.ProcessEnv
  /** stdout is a terminal: tables instead of tab-separated lines. */
  isTTY: boolean
  /** ANSI colour allowed on stdout (a TTY and NO_COLOR unset). */
  color: boolean
  /** `--json` was given. */
  json: boolean
  /** `--columns` of a list command: the table columns to show, in order. */
  columns?: readonly string[] | undefined
  /** stdin and stderr are terminals, so asking the user is possible. */
  canPrompt: boolean
  prompt: Prompter
  flags: GlobalFlags
  store(): Promise<ProfileStore>
  target(): Promise<Target>
  /** The client for the resolved target (created on first call). */
  client(): Promise<LinkdClient>
  /** A client for the resolved url with another key (or none). */
  clientWithKey(apiKey: string | undefined): Promise<LinkdClient>
}

export interface ContextOptions {
  io?: Io | undefined
  flags?: GlobalFlags | undefined
  json?: boolean | undefined
  columns?: readonly string[] | undefined
  /** Overrides for tests: TTY-ness and the prompter. */
  isTTY?: boolean | undefined
  canPrompt?: boolean | undefined
  prompt?: Prompter | undefined
  /**
   * For login: a `--profile` that does not exist yet is fine (login creates it), and without
   * --profile / LINKCTL_PROFILE the profile is `default`, not the current one.
   */
  allowNewProfile?: boolean | undefined
}

function set(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v
}

export function noColor(env: NodeJS.ProcessEnv): boolean {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== ''
}

export function createContext(opts: ContextOptions = {}): Ctx {
  const io = opts.io ?? processIo()
  const flags = opts.flags ?? {}
  const env = io.env
  const isTTY = opts.isTTY ?? io.stdout.isTTY === true
  const canPrompt = opts.canPrompt ?? (io.stdin.isTTY === true && io.stderr.isTTY === true)
  let store: Promise<ProfileStore> | undefined
  let target: Promise<Target> | undefined
  let client: Promise<LinkdClient> | undefined

  const ctx: Ctx = {
    stdout: io.stdout,
    stderr: io.stderr,
    stdin: io.stdin,
    env,
    isTTY,
    color: isTTY && !noColor(env),
    json: opts.json === true,
    columns: opts.columns,
    canPrompt,
    prompt: opts.prompt ?? lazyPrompter(io),
    flags,
    store() {
      store ??= import('./profiles.js').then((m) => m.openStore(env))
      return store
    },
    target() {
      target ??= resolveTarget(ctx, opts.allowNewProfile === true)
      return target
    },
    client() {
      client ??= ctx.target().then((t) => ctx.clientWithKey(t.apiKey))
      return client
    },
    async clientWithKey(apiKey) {
      const [{ LinkdClient }, t, version] = await Promise.all([
        import('../client/index.js'),
        ctx.target(),
        import('../version.js').then((m) => m.packageVersion()),
      ])
      return new LinkdClient({ baseUrl: t.url, apiKey, userAgent: `linkctl/${version}` })
    },
  }
  return ctx
}

/** The terminal prompter, loaded (with readline) only when a question is asked. */
function lazyPrompter(io: Io): Prompter {
  const load = () =>
    import('./prompt.js').then((m) => m.terminalPrompter(io.stdin, io.stderr as NodeJS.WritableStream))
  return {
    secret: async (q) => (await load()).secret(q),
    confirm: async (q) => (await load()).confirm(q),
    text: async (q) => (await (await load()).text?.(q)) ?? '',
  }
}

/** flags > env (LINKCTL_URL, LINKCTL_API_KEY, LINKCTL_PROFILE) > the store's profile > defaults. */
async function resolveTarget(ctx: Ctx, allowNewProfile: boolean): Promise<Target> {
  const { flags, env } = ctx
  let url = set(flags.url)
  let apiKey = set(flags.apiKey)
  const sources: Target['sources'] = {
    url: url ? 'flag' : 'none',
    apiKey: apiKey ? 'flag' : 'none',
    profile: 'none',
  }
  if (!url && set(env.LINKCTL_URL)) [url, sources.url] = [set(env.LINKCTL_URL), 'env']
  if (!apiKey && set(env.LINKCTL_API_KEY)) [apiKey, sources.apiKey] = [set(env.LINKCTL_API_KEY), 'env']
  let profile = set(flags.profile)
  if (profile) sources.profile = 'flag'
  else if (set(env.LINKCTL_PROFILE)) [profile, sources.profile] = [set(env.LINKCTL_PROFILE), 'env']

  // The store is read only when something is still missing (flags + env can do without it).
  if (!url || !apiKey) {
    const store = await ctx.store()
    if (!profile) {
      profile = allowNewProfile ? undefined : store.current()
      sources.profile = profile ? 'profile' : 'default'
      profile ??= DEFAULT_PROFILE
    }
    const saved = store.get(profile)
    if (!saved && sources.profile !== 'default' && sources.profile !== 'profile' && !allowNewProfile) {
      throw new CliError(
        `no profile named "${profile}"; create it with: linkctl login --profile ${profile}`,
        1,
      )
    }
    if (!url && saved?.url) [url, sources.url] = [saved.url, 'profile']
    if (!apiKey && saved?.apiKey) [apiKey, sources.apiKey] = [saved.apiKey, 'profile']
  }
  if (!url) [url, sources.url] = [DEFAULT_URL, 'default']
  let parsed: URL
  try {
    parsed = new URL(url)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http')
  } catch {
    const bare = !url.includes('://') && /^[\w.-]+(:\d+)?(\/|$)/.test(url)
    throw new UsageError(
      `invalid --url "${url}": expected http://host:port or https://host${bare ? `; did you mean http://${url}?` : ''}`,
    )
  }
  const port = blockedPort(parsed)
  if (port !== undefined) {
    const from =
      sources.url === 'flag'
        ? ' (--url)'
        : sources.url === 'env'
          ? ' (LINKCTL_URL)'
          : ` (profile "${profile}")`
    throw new UsageError(
      `cannot reach linkd at ${url}${from}: port ${port} is one browsers and fetch refuse to connect to (a blocked port of the Fetch standard); run linkd on another port`,
    )
  }
  return { url, apiKey, profile: profile ?? DEFAULT_PROFILE, sources }
}

/** The profile a command acts on: --profile > LINKCTL_PROFILE > the current one > `default`. */
export async function profileName(ctx: Ctx): Promise<string> {
  return (
    set(ctx.flags.profile) ?? set(ctx.env.LINKCTL_PROFILE) ?? (await ctx.store()).current() ?? DEFAULT_PROFILE
  )
}

/** Requires a key to be configured; the error tells how to get one. */
export async function requireKey(ctx: Ctx): Promise<string> {
  const t = await ctx.target()
  if (!t.apiKey) {
    throw new CliError('no API key: run `linkctl login`, or pass --api-key or set LINKCTL_API_KEY', 4)
  }
  return t.apiKey
}

const ioByProgram = new WeakMap<Command, Io>()

/** runCli attaches its streams to the program; actions find them through their root command. */
export function attachIo(program: Command, io: Io): void {
  ioByProgram.set(program, io)
}

export function ioFor(cmd: Command): Io {
  let root = cmd
  while (root.parent) root = root.parent
  return ioByProgram.get(root) ?? processIo()
}

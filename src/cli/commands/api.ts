/** `linkctl api <METHOD> <path>`: any endpoint, authenticated like every other command (like `gh api`). */
import { readFile } from 'node:fs/promises'
import { Option, type Command } from 'commander'
import { action } from '../action.js'
import type { Ctx } from '../../session/context.js'
import { UsageError } from '../../session/exit-codes.js'
import { collect } from '../parse.js'
import { helpText } from '../output.js'

export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

export interface ApiOpts {
  method: string
  path: string
  field?: string[]
  rawField?: string[]
  header?: string[]
  input?: string
  /** Refused: curl's -d (see register). */
  data?: string
  include?: boolean
  silent?: boolean
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

async function readSource(ctx: Ctx, source: string): Promise<string> {
  if (source !== '-') return readFile(source, 'utf8')
  let text = ''
  for await (const chunk of ctx.stdin) text += String(chunk)
  return text
}

/** `-F` values: true, false, null and numbers become JSON; `@file` (or `@-`) reads a file. */
async function typedValue(ctx: Ctx, raw: string): Promise<Json> {
  if (raw === 'true' || raw === 'false') return raw === 'true'
  if (raw === 'null') return null
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw)
  if (raw.startsWith('@')) return readSource(ctx, raw.slice(1))
  return raw
}

/** Sets `a[b][]=v`-style keys into `target` (`[]` appends to an array). */
function assign(target: { [k: string]: Json }, key: string, value: Json): void {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key)
  if (!m?.[1]) throw new UsageError(`invalid field name "${key}"`)
  const path = [m[1], ...[...(m[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1] ?? '')]
  let node: { [k: string]: Json } | Json[] = target
  for (let i = 0; i < path.length; i++) {
    const seg = path[i] ?? ''
    const last = i === path.length - 1
    const next = path[i + 1]
    const fresh: Json = next === '' ? [] : {}
    if (Array.isArray(node)) {
      if (seg !== '') throw new UsageError(`invalid field name "${key}"`)
      if (last) node.push(value)
      else node.push((node = fresh) as Json)
      continue
    }
    if (last) node[seg] = value
    else {
      const existing: Json | undefined = node[seg]
      node = existing !== null && typeof existing === 'object' ? existing : (node[seg] = fresh)
    }
  }
}

function splitPair(pair: string, sep: string, what: string): [string, string] {
  const i = pair.indexOf(sep)
  if (i <= 0) throw new UsageError(`invalid ${what} "${pair}": expected key${sep}value`)
  return [pair.slice(0, i).trim(), pair.slice(i + 1).trim()]
}

export async function runApi(opts: ApiOpts, ctx: Ctx): Promise<void> {
  if (opts.data !== undefined)
    throw new UsageError(
      `linkctl api takes no -d: send the JSON body with --input <file> (- for stdin), or fields with -F key=value (echo '${opts.data.replaceAll("'", "'\\''")}' | linkctl api ${opts.method} ${opts.path} --input -)`,
    )
  const method = opts.method.toUpperCase()
  if (!(API_METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`unknown method "${opts.method}": use one of ${API_METHODS.join(', ')}`)
  }
  const fields: { [k: string]: Json } = {}
  for (const f of opts.field ?? []) {
    const [k, v] = splitPair(f, '=', 'field')
    assign(fields, k, await typedValue(ctx, v))
  }
  for (const f of opts.rawField ?? []) assign(fields, ...splitPair(f, '=', 'field'))
  const headers: Record<string, string> = {}
  for (const h of opts.header ?? []) {
    const [k, v] = splitPair(h, ':', 'header')
    headers[k.toLowerCase()] = v
  }
  let body: unknown = undefined
  const query: Record<string, string> = {}
  const hasFields = Object.keys(fields).length > 0
  // Like gh: fields go in the query string for GET/HEAD or when --input supplies the body.
  if (opts.input !== undefined || method === 'GET' || method === 'HEAD') {
    for (const [k, v] of Object.entries(fields)) query[k] = typeof v === 'string' ? v : JSON.stringify(v)
  } else if (hasFields) body = fields
  if (opts.input !== undefined) {
    const text = await readSource(ctx, opts.input)
    try {
      body = JSON.parse(text)
    } catch {
      throw new UsageError(`--input ${opts.input} is not valid JSON`)
    }
  }
  const [client, { ApiError }] = await Promise.all([ctx.client(), import('../../client/index.js')])
  const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`
  try {
    const res = await client.call(method, path, { query, body, headers })
    if (opts.include) writeHead(ctx, res.status, res.headers)
    if (!opts.silent) writeBody(ctx, res.body)
  } catch (err) {
    if (err instanceof ApiError && !opts.silent) writeBody(ctx, err.body)
    // `api GET /links` reached a short link or no route: the API is under /api/.
    if (err instanceof ApiError && err.status === 404 && !/^\/api(\/|$)/.test(path))
      throw new ApiError(
        404,
        { ...err.body, message: `${err.message}: linkd's API paths begin with /api/, as in /api/use/links` },
        err.retryAfter,
      )
    throw err
  }
}

function writeHead(ctx: Ctx, status: number, headers: Record<string, string | string[] | undefined>): void {
  let text = `HTTP ${status}\n`
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) text += `${k}: ${[v].flat().join(', ')}\n`
  ctx.stdout.write(`${text}\n`)
}

function writeBody(ctx: Ctx, body: unknown): void {
  if (body === undefined) return
  ctx.stdout.write(
    typeof body === 'string'
      ? body.endsWith('\n')
        ? body
        : `${body}\n`
      : `${JSON.stringify(body, null, 2)}\n`,
  )
}

export function register(program: Command): void {
  program
    .command('api')
    .description('call any endpoint with the current profile and print the JSON response')
    .argument('<method>', `HTTP method (${API_METHODS.join(', ')})`)
    .argument('<path>', 'request path, e.g. /api/keys or /api/use/links?page=2')
    .option(
      '-F, --field <key=value>',
      'typed field: true/false/null/numbers as JSON, @file reads a file (repeatable)',
      collect,
    )
    .option('-f, --raw-field <key=value>', 'string field (repeatable)', collect)
    .option('-H, --header <name:value>', 'extra request header (repeatable)', collect)
    .option('--input <file>', 'read the JSON request body from a file, or - for stdin')
    .option('-i, --include', 'print the status line and response headers first')
    .option('--silent', 'do not print the response body')
    // curl's habit: said in words rather than as an unknown option.
    .addOption(new Option('-d, --data <body>').hideHelp())
    .addHelpText(
      'after',
      helpText(
        'Fields go into the query string for GET and HEAD, into a JSON body otherwise.',
        'Nested names: -F tags[]=a -F tags[]=b, -F metadata[source]=cli.',
        'On an error status the error body is printed and the exit code follows `linkctl help exit-codes`.',
      ),
    )
    .action(
      action<Omit<ApiOpts, 'method' | 'path'>>(([method, path], opts, ctx) =>
        runApi({ ...opts, method: method ?? '', path: path ?? '' }, ctx),
      ),
    )
}

/** `linkctl keys ...`: API key management over /api/keys. */
import { Option, type Command } from 'commander'
import { ACCEPTED_SCOPES, PRESET_NAMES } from '../../../contract/scopes.js'
import {
  KEY_ENVIRONMENTS,
  KEY_LIMITS,
  KEY_STATUSES,
  PAGE_SIZES,
  TIME_PERIODS,
  type KeyStatus,
} from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../context.js'
import { CliError, EXIT, UsageError } from '../../exit-codes.js'
import { emit, note, printRecord, printRows, warn } from '../../output.js'
import { collect, commaChoices, expiryArg, intArg } from '../../parse.js'
import { activityColumns, createBody, keyColumns, keyFields, updateBody, type KeyFlags } from './shared.js'

const PAGE_SIZE_CHOICES = PAGE_SIZES.map(String)

export interface ListOpts {
  status?: KeyStatus
  search?: string
  page?: number
  limit?: string | number
}
export interface IdOpts {
  id: string
}
export interface DeleteOpts extends IdOpts {
  yes?: boolean
}
export interface ActivityOpts extends IdOpts {
  page?: number
  limit?: string | number
}

const ONCE_WARNING = 'this is the only time the full key is shown: store it now'

export async function runKeysCreate(opts: KeyFlags, ctx: Ctx): Promise<void> {
  const body = createBody(opts)
  await requireKey(ctx)
  const key = await (await ctx.client()).keys.create(body)
  await emit(ctx, key, () => printRecord(ctx, keyFields(key, ctx.isTTY)))
  warn(ctx, ONCE_WARNING)
}

function pageQuery(opts: { page?: number; limit?: string | number }) {
  return {
    ...(opts.page !== undefined ? { page: opts.page } : {}),
    ...(opts.limit !== undefined ? { limit: Number(opts.limit) } : {}),
  }
}

function pageFooter(
  ctx: Ctx,
  page: { page: number; perPage: number; total: number; hasMore: boolean },
  n: number,
) {
  if (!ctx.isTTY) return
  const first = n === 0 ? 0 : (page.page - 1) * page.perPage + 1
  const more = page.hasMore ? `; next: --page ${page.page + 1}` : ''
  note(ctx, `Showing ${first}-${first + n - Math.min(n, 1)} of ${page.total}${more}`)
}

export async function runKeysList(opts: ListOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const page = await (
    await ctx.client()
  ).keys.list({
    ...pageQuery(opts),
    ...(opts.status ? { status: opts.status } : {}),
    ...(opts.search ? { search: opts.search } : {}),
  })
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No API keys match.')
    await printRows(ctx, page.data, keyColumns(ctx.isTTY))
    pageFooter(ctx, page, page.data.length)
  })
}

export async function runKeysGet(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const key = await (await ctx.client()).keys.get(opts.id)
  await emit(ctx, key, () => printRecord(ctx, keyFields(key, ctx.isTTY)))
}

export async function runKeysUpdate(opts: IdOpts & KeyFlags, ctx: Ctx): Promise<void> {
  const body = updateBody(opts)
  await requireKey(ctx)
  const key = await (await ctx.client()).keys.update(opts.id, body)
  await emit(ctx, key, () => printRecord(ctx, keyFields(key, ctx.isTTY)))
}

export async function runKeysRegenerate(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const key = await (await ctx.client()).keys.regenerate(opts.id)
  await emit(ctx, key, () => printRecord(ctx, keyFields(key, ctx.isTTY)))
  warn(ctx, `the previous key stopped working; ${ONCE_WARNING}`)
}

type Transition = 'revoke' | 'activate' | 'deactivate'
const DONE: Record<Transition, string> = {
  revoke: 'Revoked',
  activate: 'Activated',
  deactivate: 'Deactivated',
}

async function transition(verb: Transition, opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const key = await (await ctx.client()).keys[verb](opts.id)
  if (ctx.json) await emit(ctx, key, () => undefined)
  else note(ctx, `${DONE[verb]} key ${key.name} (${key.id}); status: ${key.status}`)
}

export const runKeysRevoke = (opts: IdOpts, ctx: Ctx) => transition('revoke', opts, ctx)
export const runKeysActivate = (opts: IdOpts, ctx: Ctx) => transition('activate', opts, ctx)
export const runKeysDeactivate = (opts: IdOpts, ctx: Ctx) => transition('deactivate', opts, ctx)

export async function runKeysDelete(opts: DeleteOpts, ctx: Ctx): Promise<void> {
  if (!opts.yes) {
    if (!ctx.canPrompt) throw new UsageError('refusing to delete without confirmation: pass --yes')
    if (!(await ctx.prompt.confirm(`Delete API key ${opts.id}? This cannot be undone.`))) {
      throw new CliError('aborted', EXIT.error)
    }
  }
  await requireKey(ctx)
  await (await ctx.client()).keys.delete(opts.id)
  note(ctx, `Deleted key ${opts.id}`)
}

export interface TestOpts {
  key: string
}

/** Checks a key with POST /api/keys/test (no key of our own needed). Invalid keys exit 4. */
export async function runKeysTest(opts: TestOpts, ctx: Ctx): Promise<void> {
  let key = opts.key
  if (key === '-') {
    let text = ''
    for await (const chunk of ctx.stdin) text += String(chunk)
    key = text.trim()
  } else if (!key) {
    // Asking keeps the key out of the shell history.
    if (!ctx.canPrompt) throw new UsageError('no key given: pass it, or - to read it from stdin')
    key = await ctx.prompt.secret('Key to test: ')
  }
  if (!key) throw new UsageError('no key given')
  const result = await (await ctx.clientWithKey(undefined)).keys.test(key)
  await emit(ctx, result, () => {
    const fields: [string, string | number | undefined][] = [
      ['VALID', String(result.valid)],
      ['REASON', result.reason],
    ]
    if (result.key) {
      const k = result.key
      fields.push(['ID', k.id], ['NAME', k.name], ['STATUS', k.status], ['PREVIEW', k.preview])
      fields.push(['ORGANIZATION', `${k.organization.name} (${k.organization.plan})`])
      fields.push(['SCOPES', k.permissions.join(ctx.isTTY ? ', ' : ',')], ['EXPIRES', k.expiresAt ?? ''])
    }
    if (result.rateLimit) {
      const r = result.rateLimit
      fields.push(['RATE LIMIT', `${r.remaining}/${r.limit} per ${r.period} remaining`])
      fields.push(['RESETS', new Date(r.reset * 1000).toISOString()])
    }
    return printRecord(ctx, fields)
  })
  if (!result.valid) throw new CliError(`key is not valid: ${result.reason ?? 'unknown reason'}`, EXIT.auth)
}

export async function runKeysActivity(opts: ActivityOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const page = await (await ctx.client()).keys.activity(opts.id, pageQuery(opts))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No activity recorded for this key.')
    await printRows(ctx, page.data, activityColumns(ctx.isTTY))
    pageFooter(ctx, page, page.data.length)
  })
}

function keyFieldOptions(cmd: Command, mode: 'create' | 'update'): Command {
  const name = new Option('--name <name>', `key name (up to ${KEY_LIMITS.nameMax} characters)`)
  cmd
    .addOption(mode === 'create' ? name.makeOptionMandatory() : name)
    .option('--description <text>', mode === 'update' ? 'description ("" clears it)' : 'description')
    .option('--expires-at <when>', 'expiry: ISO date/time, 30d/12h/90m/2w from now, or never', expiryArg)
    .option(
      '--permissions <scopes>',
      'comma-separated scopes, e.g. links:read,links:write',
      commaChoices(ACCEPTED_SCOPES),
    )
    .addOption(
      new Option('--scope <scope>', 'add one scope (repeatable)')
        .choices(ACCEPTED_SCOPES)
        .argParser(commaChoices(ACCEPTED_SCOPES)),
    )
    .addOption(
      new Option(
        '--preset <preset>',
        mode === 'update' ? 'replace scopes with a preset' : 'scope preset',
      ).choices(PRESET_NAMES),
    )
    .option('--request-limit <n>', 'requests allowed per time period', intArg(1, KEY_LIMITS.requestLimitMax))
    .addOption(new Option('--time-period <period>', 'rate-limit window').choices(TIME_PERIODS))
    .option('--allowed-ip <ip>', 'allow this IP or CIDR range (repeatable; none = any IP)', collect)
    .option('--allowed-origin <origin>', 'allowed origin URL (repeatable)', collect)
  if (mode === 'create') {
    cmd.addOption(new Option('--environment <env>', 'key environment').choices(KEY_ENVIRONMENTS))
  } else {
    cmd.option('--clear-allowed-ips', 'remove every allowed IP (any IP may use the key)')
    cmd.option('--clear-allowed-origins', 'remove every allowed origin')
  }
  return cmd
}

function pageOptions(cmd: Command): Command {
  return cmd
    .option('--page <n>', 'page number, from 1', intArg(1))
    .addOption(new Option('--limit <n>', 'page size').choices(PAGE_SIZE_CHOICES))
}

const idAction = <O>(run: (opts: O & IdOpts, ctx: Ctx) => Promise<void>) =>
  action<O>(([id], opts, ctx) => run({ ...opts, id: id ?? '' }, ctx))

export function register(program: Command): void {
  const keys = program.command('keys').description('manage API keys')

  jsonOption(
    keyFieldOptions(
      keys.command('create').description('create an API key (the full key is shown once)'),
      'create',
    ),
  ).action(action<KeyFlags>((_args, opts, ctx) => runKeysCreate(opts, ctx)))

  const list = keys.command('list').alias('ls').description('list API keys')
  list.addOption(new Option('--status <status>', 'only keys with this status').choices(KEY_STATUSES))
  list.option('--search <text>', 'match name or description')
  jsonOption(pageOptions(list)).action(action<ListOpts>((_args, opts, ctx) => runKeysList(opts, ctx)))

  jsonOption(keys.command('get').description('show one API key').argument('<id>', 'key id (key_...)')).action(
    idAction(runKeysGet),
  )

  jsonOption(
    keyFieldOptions(
      keys.command('update').description('change an API key').argument('<id>', 'key id'),
      'update',
    ),
  ).action(idAction<KeyFlags>(runKeysUpdate))

  for (const [verb, run, text] of [
    [
      'regenerate',
      runKeysRegenerate,
      'replace the key value (the old one stops working; the new one is shown once)',
    ],
    ['revoke', runKeysRevoke, 'revoke a key for good'],
    ['activate', runKeysActivate, 'reactivate an inactive key'],
    ['deactivate', runKeysDeactivate, 'suspend a key until it is activated again'],
  ] as const) {
    jsonOption(keys.command(verb).description(text).argument('<id>', 'key id')).action(idAction(run))
  }

  keys
    .command('delete')
    .alias('rm')
    .description('delete an API key (asks for confirmation on a terminal)')
    .argument('<id>', 'key id')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(idAction<{ yes?: boolean }>(runKeysDelete))

  jsonOption(
    keys
      .command('test')
      .description('check whether a key is valid (exit 4 when it is not)')
      .argument('[key]', 'the full key, or - to read it from stdin (asked for on a terminal when left out)'),
  ).action(action<object>(([key], _opts, ctx) => runKeysTest({ key: key ?? '' }, ctx)))

  jsonOption(
    pageOptions(
      keys.command('activity').description("show a key's recent requests").argument('<id>', 'key id'),
    ),
  ).action(idAction<Omit<ActivityOpts, 'id'>>(runKeysActivity))
}

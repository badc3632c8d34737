/**
 * `linkctl webhooks ...`: webhook management over /api/webhooks. sign, verify and listen work
 * locally with the same signature module as the daemon (webhooks-local.ts, loaded when run).
 */
import { Option, type Command } from 'commander'
import {
  DELIVERY_STATUSES,
  PAGE_SIZES,
  RETRY_POLICIES,
  WEBHOOK_EVENTS,
  WEBHOOK_LIMITS,
  WEBHOOK_STATUSES,
  WEBHOOK_TEMPLATE_IDS,
  type DeliveryStatus,
  type RetryPolicy,
  type WebhookEvent,
  type WebhookStatus,
  type WebhookTemplateId,
} from '../../../contract/limits.js'
import type { CreateWebhookBody, Delivery, Webhook, WebhookWithSecret } from '../../../contract/webhooks.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../context.js'
import { CliError, EXIT, UsageError } from '../../exit-codes.js'
import { emit, note, percent, printRecord, printRows, warn, type Column, type Field } from '../../output.js'
import { collect, commaChoices, intArg } from '../../parse.js'

export interface WebhookFlags {
  name?: string
  url?: string
  endpoint?: string
  description?: string
  event?: string[]
  template?: WebhookTemplateId
  retryPolicy?: RetryPolicy
  maxRetries?: number
  timeout?: number
  header?: string[]
  clearHeaders?: boolean
}
interface PageFlags {
  page?: number
  limit?: string | number
}

/** `Name: value` or `Name=value`. */
export function parseHeaders(list: string[] | undefined): Record<string, string> | undefined {
  if (!list) return undefined
  const out: Record<string, string> = {}
  for (const item of list) {
    const m = /^([^:=\s]+)\s*[:=]\s?(.*)$/.exec(item)
    if (!m) throw new UsageError(`--header "${item}": expected Name: value or Name=value`)
    out[m[1]!] = m[2]!
  }
  return out
}

function body(opts: WebhookFlags) {
  const headers = opts.clearHeaders ? {} : parseHeaders(opts.header)
  return {
    ...(opts.name !== undefined && { name: opts.name }),
    ...((opts.url ?? opts.endpoint) !== undefined && { url: opts.url ?? opts.endpoint }),
    ...(opts.description !== undefined && { description: opts.description }),
    ...(opts.event !== undefined && { events: opts.event as WebhookEvent[] }),
    ...(opts.retryPolicy !== undefined && { retryPolicy: opts.retryPolicy }),
    ...(opts.maxRetries !== undefined && { maxRetries: opts.maxRetries }),
    ...(opts.timeout !== undefined && { timeoutSeconds: opts.timeout }),
    ...(headers !== undefined && { headers }),
  }
}

const webhookColumns = (tty: boolean): Column<Webhook>[] => [
  { header: 'ID', value: (w) => w.id },
  { header: 'NAME', value: (w) => w.name },
  { header: 'STATUS', value: (w) => w.status },
  { header: 'URL', value: (w) => w.url },
  { header: 'EVENTS', value: (w) => w.events.join(tty ? ', ' : ',') },
  { header: 'FAILURES', value: (w) => w.consecutiveFailures },
]

function webhookFields(w: Webhook | WebhookWithSecret, tty: boolean): Field[] {
  const fields: Field[] = [
    ['ID', w.id],
    ['NAME', w.name],
    ['STATUS', w.status],
    ['URL', w.url],
    ['EVENTS', w.events.join(tty ? ', ' : ',')],
    ['RETRY POLICY', `${w.retryPolicy}, up to ${w.maxRetries} retries`],
    ['TIMEOUT', `${w.timeoutSeconds} s`],
    ['HEADERS', Object.keys(w.headers).join(tty ? ', ' : ',')],
    ['CONSECUTIVE FAILURES', w.consecutiveFailures],
    ['DESCRIPTION', w.description],
    ['CREATED', w.createdAt],
    ['UPDATED', w.updatedAt],
  ]
  if ('secret' in w) fields.splice(4, 0, ['SECRET', w.secret])
  return fields
}

const deliveryColumns: Column<Delivery>[] = [
  { header: 'ID', value: (d) => d.id },
  { header: 'EVENT', value: (d) => d.event + (d.test ? ' (test)' : '') },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'ATTEMPT', value: (d) => d.attempt },
  { header: 'CODE', value: (d) => d.responseStatusCode },
  { header: 'MS', value: (d) => d.durationMs },
  { header: 'SENT', value: (d) => d.sentAt },
  { header: 'NEXT', value: (d) => d.nextAttemptAt },
  { header: 'ERROR', value: (d) => d.error },
]

const deliveryFields = (d: Delivery): Field[] => [
  ['DELIVERY', d.id],
  ['EVENT', d.event],
  ['STATUS', d.status],
  ['ATTEMPT', `${d.attempt} of ${d.maxAttempts}`],
  ['RESPONSE', d.responseStatusCode],
  ['DURATION MS', d.durationMs],
  ['ERROR', d.error],
]

function pageQuery(opts: PageFlags) {
  return {
    ...(opts.page !== undefined ? { page: opts.page } : {}),
    ...(opts.limit !== undefined ? { limit: Number(opts.limit) } : {}),
  }
}

const SECRET_ONCE = 'this is the only time the signing secret is shown: store it now'

export async function runWebhooksCreate(opts: WebhookFlags, ctx: Ctx): Promise<void> {
  if (!opts.event && !opts.template) throw new UsageError('give --event (repeatable) or --template')
  const b = { ...body(opts), ...(opts.template && { template: opts.template }) }
  await requireKey(ctx)
  const w = await (await ctx.client()).webhooks.create(b as CreateWebhookBody)
  await emit(ctx, w, () => printRecord(ctx, webhookFields(w, ctx.isTTY)))
  warn(ctx, SECRET_ONCE)
}

export async function runWebhooksList(
  opts: PageFlags & { status?: WebhookStatus; event?: WebhookEvent },
  ctx: Ctx,
) {
  await requireKey(ctx)
  const page = await (
    await ctx.client()
  ).webhooks.list({
    ...pageQuery(opts),
    ...(opts.status ? { status: opts.status } : {}),
    ...(opts.event ? { event: opts.event } : {}),
  })
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No webhooks match.')
    await printRows(ctx, page.data, webhookColumns(ctx.isTTY))
    if (ctx.isTTY && page.hasMore) note(ctx, `${page.total} webhooks; next: --page ${page.page + 1}`)
  })
}

export async function runWebhooksGet(opts: { id: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const w = await (await ctx.client()).webhooks.get(opts.id)
  await emit(ctx, w, () => printRecord(ctx, webhookFields(w, ctx.isTTY)))
}

export async function runWebhooksUpdate(opts: WebhookFlags & { id: string }, ctx: Ctx): Promise<void> {
  const b = body(opts)
  if (Object.keys(b).length === 0) throw new UsageError('nothing to change: give at least one option')
  await requireKey(ctx)
  const w = await (await ctx.client()).webhooks.update(opts.id, b)
  await emit(ctx, w, () => printRecord(ctx, webhookFields(w, ctx.isTTY)))
}

type Verb = 'enable' | 'disable' | 'suspend' | 'delete'
const DONE: Record<Verb, string> = {
  enable: 'Enabled',
  disable: 'Disabled',
  suspend: 'Suspended',
  delete: 'Deleted',
}

/** One id: the single action; several: the bulk endpoint (`updated` is how many changed). */
export async function runWebhooksStatus(verb: Verb, opts: { ids: string[]; yes?: boolean }, ctx: Ctx) {
  if (opts.ids.length === 0) throw new UsageError('give at least one webhook id')
  if (verb === 'delete' && !opts.yes) {
    if (!ctx.canPrompt) throw new UsageError('refusing to delete without confirmation: pass --yes')
    if (
      !(await ctx.prompt.confirm(
        `Delete ${opts.ids.join(', ')} and the delivery logs? This cannot be undone.`,
      ))
    )
      throw new CliError('aborted', EXIT.error)
  }
  await requireKey(ctx)
  const client = await ctx.client()
  if (opts.ids.length === 1) {
    const id = opts.ids[0]!
    if (verb === 'delete') {
      await client.webhooks.delete(id)
      if (ctx.json) return emit(ctx, { updated: 1 }, () => undefined)
      return note(ctx, `Deleted webhook ${id}`)
    }
    const w = await client.webhooks[verb](id)
    if (ctx.json) return emit(ctx, w, () => undefined)
    return note(ctx, `${DONE[verb]} webhook ${w.name} (${w.id}); status: ${w.status}`)
  }
  if (verb === 'suspend') throw new UsageError('suspend takes one webhook id')
  const r = await client.webhooks.bulk({ action: verb, ids: opts.ids })
  await emit(ctx, r, () => note(ctx, `${DONE[verb]} ${r.updated} of ${opts.ids.length} webhooks`))
}

export async function runWebhooksRotate(opts: { id: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const w = await (await ctx.client()).webhooks.rotateSecret(opts.id)
  await emit(ctx, w, () => void ctx.stdout.write(`${w.secret}\n`))
  warn(ctx, `the previous secret stopped working; ${SECRET_ONCE}`)
}

/** Exit 1 when the attempt failed (so scripts can check a receiver). */
async function showAttempt(ctx: Ctx, d: Delivery): Promise<void> {
  await emit(ctx, d, () => printRecord(ctx, deliveryFields(d)))
  if (d.status === 'failed') throw new CliError(`delivery failed: ${d.error ?? 'unknown error'}`, EXIT.error)
}

export async function runWebhooksTest(opts: { id: string; event?: WebhookEvent }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  await showAttempt(ctx, await (await ctx.client()).webhooks.test(opts.id, opts.event))
}

export async function runWebhooksRetry(opts: { id: string; deliveryId: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  await showAttempt(ctx, await (await ctx.client()).webhooks.retry(opts.id, opts.deliveryId))
}

export async function runWebhooksDeliveries(
  opts: PageFlags & { id: string; status?: DeliveryStatus; event?: WebhookEvent },
  ctx: Ctx,
): Promise<void> {
  await requireKey(ctx)
  const page = await (
    await ctx.client()
  ).webhooks.deliveries(opts.id, {
    ...pageQuery(opts),
    ...(opts.status ? { status: opts.status } : {}),
    ...(opts.event ? { event: opts.event } : {}),
  })
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) note(ctx, 'No deliveries match.')
    else await printRows(ctx, page.data, deliveryColumns)
    const t = page.totals
    if (ctx.isTTY)
      note(
        ctx,
        `Total ${t.total}: ${t.success} success, ${t.failed} failed, ${t.pending} pending${page.hasMore ? `; next: --page ${page.page + 1}` : ''}`,
      )
  })
}

export async function runWebhooksHealth(opts: { id: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const a = await (await ctx.client()).webhooks.analytics(opts.id)
  await emit(ctx, a, () =>
    printRecord(ctx, [
      ['WEBHOOK', a.webhookId],
      ['STATUS', a.status],
      ['HEALTH', a.healthScore === null ? 'no finished deliveries' : `${a.healthScore} (${a.band})`],
      ['DELIVERIES', `${a.totalDeliveries}: ${a.success} success, ${a.failed} failed, ${a.pending} pending`],
      ['SUCCESS RATE', a.successRate === null ? null : percent(a.successRate)],
      ['AVG RESPONSE', a.averageResponseMs === null ? null : `${a.averageResponseMs} ms`],
      ['CONSECUTIVE FAILURES', a.consecutiveFailures],
      ['EVENTS', a.events.map((e) => `${e.event} ${e.count} (${e.percent}%)`).join(ctx.isTTY ? ', ' : ',')],
    ]),
  )
}

export async function runWebhooksTemplates(ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const { data } = await (await ctx.client()).webhooks.templates()
  await emit(ctx, data, () =>
    printRows(ctx, data, [
      { header: 'ID', value: (t) => t.id },
      { header: 'NAME', value: (t) => t.name },
      { header: 'EVENTS', value: (t) => t.events.join(ctx.isTTY ? ', ' : ',') },
    ]),
  )
}

function fieldOptions(cmd: Command, mode: 'create' | 'update'): Command {
  const name = new Option('--name <name>', `webhook name (up to ${WEBHOOK_LIMITS.nameMax} characters)`)
  cmd.addOption(mode === 'create' ? name.makeOptionMandatory() : name)
  if (mode === 'update') cmd.option('--endpoint <url>', 'new receiver URL')
  cmd
    .option('--description <text>', 'description')
    .option('--event <types>', 'event type(s), comma-separated or repeated', commaChoices(WEBHOOK_EVENTS))
    .addOption(
      new Option('--retry-policy <policy>', 'retry timing (default exponential)').choices(RETRY_POLICIES),
    )
    .option(
      '--max-retries <n>',
      'retries after the first attempt, 0-10 (default 3)',
      intArg(0, WEBHOOK_LIMITS.maxRetriesMax),
    )
    .option(
      '--timeout <seconds>',
      `answer timeout, ${WEBHOOK_LIMITS.timeoutMin}-${WEBHOOK_LIMITS.timeoutMax} s (default 30)`,
      intArg(WEBHOOK_LIMITS.timeoutMin, WEBHOOK_LIMITS.timeoutMax),
    )
    .option('--header <header>', 'custom header "Name: value" (repeatable, up to 10)', collect)
  if (mode === 'create')
    cmd.addOption(
      new Option('--template <id>', "use a built-in template's events").choices(WEBHOOK_TEMPLATE_IDS),
    )
  else cmd.option('--clear-headers', 'remove every custom header')
  return cmd
}

const pageOptions = (cmd: Command) =>
  cmd
    .option('--page <n>', 'page number, from 1', intArg(1))
    .addOption(new Option('--limit <n>', 'page size').choices(PAGE_SIZES.map(String)))

const local = () => import('./local.js')

export function register(program: Command): void {
  const wh = program
    .command('webhooks')

    .description('manage webhooks; sign, verify and receive deliveries')

  jsonOption(
    fieldOptions(
      wh
        .command('create')
        .description('create a webhook (the signing secret is shown once)')
        .argument('<url>', 'receiver URL: https, or http for localhost / 127.0.0.1'),
      'create',
    ),
  ).action(action<WebhookFlags>(([url], opts, ctx) => runWebhooksCreate({ ...opts, url: url ?? '' }, ctx)))

  const list = wh.command('list').alias('ls').description('list webhooks')
  list.addOption(new Option('--status <status>', 'only webhooks with this status').choices(WEBHOOK_STATUSES))
  list.addOption(
    new Option('--event <type>', 'only webhooks subscribed to this event').choices(WEBHOOK_EVENTS),
  )
  jsonOption(pageOptions(list)).action(action<PageFlags>((_a, opts, ctx) => runWebhooksList(opts, ctx)))

  jsonOption(
    wh.command('get').description('show one webhook').argument('<id>', 'webhook id (wh_...)'),
  ).action(action<object>(([id], _o, ctx) => runWebhooksGet({ id: id ?? '' }, ctx)))

  jsonOption(
    fieldOptions(
      wh.command('update').description('change a webhook').argument('<id>', 'webhook id'),
      'update',
    ),
  ).action(action<WebhookFlags>(([id], opts, ctx) => runWebhooksUpdate({ ...opts, id: id ?? '' }, ctx)))

  for (const [verb, text] of [
    ['enable', 'enable webhooks (resets consecutive failures; several ids: bulk)'],
    ['disable', 'disable webhooks: they receive nothing (several ids: bulk)'],
    ['suspend', 'pause deliveries of an active webhook until it is enabled'],
    ['delete', 'delete webhooks and their delivery logs (asks on a terminal; several ids: bulk)'],
  ] as const) {
    const cmd = wh.command(verb).description(text).argument('<ids...>', 'webhook id(s)')
    if (verb === 'delete')
      cmd.alias('rm').option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    jsonOption(cmd).action(
      action<{ yes?: boolean }>((args, opts, ctx) =>
        runWebhooksStatus(verb, { ...opts, ids: (args[0] ?? []) as unknown as string[] }, ctx),
      ),
    )
  }

  jsonOption(
    wh
      .command('rotate-secret')
      .description('replace the signing secret (the old one stops at once)')
      .argument('<id>', 'webhook id'),
  ).action(action<object>(([id], _o, ctx) => runWebhooksRotate({ id: id ?? '' }, ctx)))

  jsonOption(
    wh
      .command('test')
      .description('send a sample event now and show the result (exit 1 when it failed)')
      .argument('<id>', 'webhook id')
      .addOption(
        new Option('--event <type>', 'event type of the sample (default link.created)').choices(
          WEBHOOK_EVENTS,
        ),
      ),
  ).action(
    action<{ event?: WebhookEvent }>(([id], opts, ctx) => runWebhooksTest({ ...opts, id: id ?? '' }, ctx)),
  )

  const deliveries = wh
    .command('deliveries')
    .description("a webhook's delivery log with totals")
    .argument('<id>', 'webhook id')
  deliveries.addOption(
    new Option('--status <status>', 'only deliveries with this status').choices(DELIVERY_STATUSES),
  )
  deliveries.addOption(new Option('--event <type>', 'only this event type').choices(WEBHOOK_EVENTS))
  jsonOption(pageOptions(deliveries)).action(
    action<PageFlags & { status?: DeliveryStatus; event?: WebhookEvent }>(([id], opts, ctx) =>
      runWebhooksDeliveries({ ...opts, id: id ?? '' }, ctx),
    ),
  )

  jsonOption(
    wh
      .command('retry')
      .description('retry a failed delivery now (exit 1 when it fails again)')
      .argument('<id>', 'webhook id')
      .argument('<delivery-id>', 'delivery id (dlv_...)'),
  ).action(action<object>(([id, d], _o, ctx) => runWebhooksRetry({ id: id ?? '', deliveryId: d ?? '' }, ctx)))

  jsonOption(
    wh
      .command('health')
      .description('health score, success rate and per-event breakdown')
      .argument('<id>', 'webhook id'),
  ).action(action<object>(([id], _o, ctx) => runWebhooksHealth({ id: id ?? '' }, ctx)))

  jsonOption(wh.command('templates').description('the built-in templates and their events')).action(
    action<object>((_a, _o, ctx) => runWebhooksTemplates(ctx)),
  )

  const secretOpt = () =>
    new Option('--secret <secret>', 'webhook signing secret (env LINKCTL_WEBHOOK_SECRET)')
  const payloadOpts = (cmd: Command) =>
    cmd
      .option('--payload <json>', 'the raw body (default: read stdin)')
      .option('--payload-file <file>', 'read the raw body from a file')

  jsonOption(
    payloadOpts(
      wh
        .command('sign')
        .description('sign a payload like a delivery: signature and headers (offline)')
        .addOption(secretOpt())
        .option('--timestamp <ms>', 'Unix ms (default now)', intArg(0)),
    ),
  ).action(
    action<Record<string, unknown>>(async (_a, opts, ctx) => (await local()).runWebhooksSign(opts, ctx)),
  )

  jsonOption(
    payloadOpts(
      wh
        .command('verify')
        .description('verify a signature (offline); exit 4 when it is not valid')
        .addOption(secretOpt())
        .requiredOption('--signature <sig>', 'X-Webhook-Signature value (sha256=...)')
        .requiredOption('--timestamp <ms>', 'X-Webhook-Timestamp value (Unix ms)')
        .option('--tolerance <seconds>', 'largest accepted age (default 300)', intArg(0)),
    ),
  ).action(
    action<Record<string, unknown>>(async (_a, opts, ctx) => (await local()).runWebhooksVerify(opts, ctx)),
  )

  jsonOption(
    wh
      .command('listen')
      .description(
        'receive deliveries on a local port: verify signatures, print events (200 valid, 401 invalid)',
      )
      .requiredOption('--port <n>', 'port to listen on (0: any free port)', intArg(0, 65535))
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .addOption(secretOpt())
      .option('--tolerance <seconds>', 'largest accepted signature age (default 300)', intArg(0)),
  ).action(
    action<Record<string, unknown>>(async (_a, opts, ctx) => (await local()).runWebhooksListen(opts, ctx)),
  )
}

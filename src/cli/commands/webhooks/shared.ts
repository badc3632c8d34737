/**
 * What the `webhooks` verbs share: the create/update flags and the body they become, how a
 * webhook and a delivery look on the terminal, the state changes (enable, disable, suspend,
 * delete, one id or in bulk) and the secret and payload of the offline verbs (sign, verify, listen).
 */
import { readFileSync } from 'node:fs'
import { Option, type Command } from 'commander'
import {
  RETRY_POLICIES,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMATS,
  WEBHOOK_LIMITS,
  WEBHOOK_TEMPLATE_IDS,
  type RetryPolicy,
  type WebhookEvent,
  type WebhookFormat,
  type WebhookTemplateId,
} from '../../../contract/limits.js'
import type { Delivery, Webhook, WebhookWithSecret } from '../../../contract/webhooks.js'
import { action, jsonOption } from '../../action.js'
import { confirmOrStop } from '../../confirm.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { CliError, EXIT, missingOption, UsageError } from '../../../session/exit-codes.js'
import { emit, note, plural, printRecord, when, type Column, type Field } from '../../output.js'
import { collect, commaChoices, intArg } from '../../parse.js'
import { readFailure } from '../../sink.js'

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
  format?: WebhookFormat
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

/** The request body of `webhooks create` / `webhooks update` for the flags given. */
export function body(opts: WebhookFlags) {
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
    ...(opts.format !== undefined && { format: opts.format }),
  }
}

export const webhookColumns = (tty: boolean): Column<Webhook>[] => [
  { header: 'ID', value: (w) => w.id },
  { header: 'NAME', value: (w) => w.name, fit: 'flex', drop: 3 },
  { header: 'STATUS', value: (w) => w.status },
  { header: 'URL', value: (w) => w.url, fit: 'flex' },
  { header: 'EVENTS', value: (w) => w.events.join(tty ? ', ' : ','), fit: 'wrap', drop: 2 },
  { header: 'FAILURES', value: (w) => w.consecutiveFailures, drop: 1 },
]

export function webhookFields(w: Webhook | WebhookWithSecret, tty: boolean): Field[] {
  const fields: Field[] = [
    ['ID', w.id],
    ['NAME', w.name],
    ['STATUS', w.status],
    ['URL', w.url],
    ['EVENTS', w.events.join(tty ? ', ' : ',')],
    [
      'RETRY POLICY',
      // Policy none makes no retries whatever maxRetries holds (it applies if the policy changes).
      w.retryPolicy === 'none'
        ? 'none (no retries)'
        : `${w.retryPolicy}, up to ${plural(w.maxRetries, 'retry', 'retries')}`,
    ],
    ['TIMEOUT', `${w.timeoutSeconds} s`],
    ['FORMAT', w.format],
    ['HEADERS', Object.keys(w.headers).join(tty ? ', ' : ',')],
    ['CONSECUTIVE FAILURES', w.consecutiveFailures],
    ['FAILED ATTEMPTS IN A ROW', w.failedAttempts],
    ['DESCRIPTION', w.description],
    ['CREATED', when(w.createdAt, tty)],
    ['UPDATED', when(w.updatedAt, tty)],
  ]
  if ('secret' in w) fields.splice(4, 0, ['SECRET', w.secret])
  return fields
}

export const deliveryColumns = (tty: boolean): Column<Delivery>[] => [
  { header: 'ID', value: (d) => d.id },
  { header: 'EVENT', value: (d) => d.event + (d.test ? ' (test)' : '') },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'ATTEMPT', value: (d) => d.attempt, drop: 3 },
  { header: 'CODE', value: (d) => d.responseStatusCode },
  { header: 'MS', value: (d) => d.durationMs, drop: 4 },
  { header: 'SENT', value: (d) => when(d.sentAt, tty), drop: 2 },
  { header: 'NEXT', value: (d) => when(d.nextAttemptAt, tty), drop: 5 },
  { header: 'ERROR', value: (d) => d.error, fit: 'flex', drop: 1 },
]

export const deliveryFields = (d: Delivery): Field[] => [
  ['DELIVERY', d.id],
  ['EVENT', d.event],
  ['STATUS', d.status],
  ['ATTEMPT', `${d.attempt} of ${d.maxAttempts}`],
  ['RESPONSE', d.responseStatusCode],
  ['DURATION MS', d.durationMs],
  ['ERROR', d.error],
]

export const SECRET_ONCE = 'this is the only time the signing secret is shown: store it now'

/** A verb that names one webhook by id. */
export interface IdOpts {
  id: string
}

export type StateVerb = 'enable' | 'disable' | 'suspend' | 'delete'
const DONE: Record<StateVerb, string> = {
  enable: 'Enabled',
  disable: 'Disabled',
  suspend: 'Suspended',
  delete: 'Deleted',
}

/** One id: the single action; several: the bulk endpoint (`updated` is how many changed). */
export async function runWebhooksStatus(verb: StateVerb, opts: { ids: string[]; yes?: boolean }, ctx: Ctx) {
  if (opts.ids.length === 0) throw new UsageError('give at least one webhook id')
  if (verb === 'delete')
    await confirmOrStop(ctx, {
      yes: opts.yes,
      action: `delete ${opts.ids.join(', ')}`,
      question: `Delete ${opts.ids.join(', ')} and the delivery logs? This cannot be undone.`,
    })
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
  await emit(ctx, r, () => note(ctx, `${DONE[verb]} ${r.updated} of ${plural(opts.ids.length, 'webhook')}`))
}

/** Registers one of enable, disable, suspend and delete (delete: alias rm and --yes). */
export function registerStateVerb(wh: Command, verb: StateVerb, text: string): void {
  const cmd = wh.command(verb).description(text).argument('<ids...>', 'webhook id(s)')
  if (verb === 'delete')
    cmd.alias('rm').option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
  jsonOption(cmd).action(
    action<{ yes?: boolean }>((args, opts, ctx) =>
      runWebhooksStatus(verb, { ...opts, ids: (args[0] ?? []) as unknown as string[] }, ctx),
    ),
  )
}

/** Exit 1 when the attempt failed (so scripts can check a receiver). */
export async function showAttempt(ctx: Ctx, d: Delivery): Promise<void> {
  await emit(ctx, d, () => printRecord(ctx, deliveryFields(d)))
  if (d.status === 'failed') throw new CliError(`delivery failed: ${d.error ?? 'unknown error'}`, EXIT.error)
}

/** The flags of `webhooks create` and `webhooks update`. */
/** `--header`'s field, for a refusal (`headers.Host` → `--header 'Host: x'`). */
export const WEBHOOK_FLAGS = { 'headers{}': '--header' }

export function fieldOptions(cmd: Command, mode: 'create' | 'update'): Command {
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
    .addOption(
      new Option(
        '--format <format>',
        `body posted: json (the event), slack or discord (a chat message for their incoming webhook URL)${mode === 'create' ? ' (default json)' : ''}`,
      ).choices(WEBHOOK_FORMATS),
    )
  if (mode === 'create')
    cmd.addOption(
      new Option('--template <id>', "use a built-in template's events").choices(WEBHOOK_TEMPLATE_IDS),
    )
  else cmd.option('--clear-headers', 'remove every custom header')
  return cmd
}

/** The signature module the daemon signs deliveries with, loaded only by the offline verbs. */
export const signatureModule = () => import('../../../contract/webhook-signature.js')

export const secretOpt = () =>
  new Option('--secret <secret>', 'webhook signing secret (env LINKCTL_WEBHOOK_SECRET)')

/** The signing secret: --secret, else LINKCTL_WEBHOOK_SECRET; usage error when required and missing. */
export function secretOf(opts: { secret?: unknown }, ctx: Ctx, required: boolean): string | undefined {
  const s =
    typeof opts.secret === 'string' && opts.secret ? opts.secret : ctx.env.LINKCTL_WEBHOOK_SECRET || undefined
  if (!s && required) throw missingOption('--secret <secret>', 'set LINKCTL_WEBHOOK_SECRET')
  return s
}

/** The raw body to sign or verify: --payload, --payload-file, else stdin. */
export async function payloadOf(
  opts: { payload?: unknown; payloadFile?: unknown },
  ctx: Ctx,
): Promise<string> {
  if (typeof opts.payload === 'string') return opts.payload
  if (typeof opts.payloadFile === 'string') {
    try {
      return readFileSync(opts.payloadFile, 'utf8')
    } catch (err) {
      throw readFailure(`--payload-file ${opts.payloadFile}`, err)
    }
  }
  if (ctx.stdin.isTTY) throw new UsageError('no payload: pass --payload, --payload-file, or pipe it on stdin')
  let text = ''
  for await (const chunk of ctx.stdin) text += String(chunk)
  return text
}

export const payloadOpts = (cmd: Command) =>
  cmd
    .option('--payload <json>', 'the raw body (default: read stdin)')
    .option('--payload-file <file>', 'read the raw body from a file')

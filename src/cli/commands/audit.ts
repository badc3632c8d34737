/**
 * `linkctl audit`: the organization's audit log, newest first: who (member, key) made which
 * successful write (action, resource), from where and when. Needs a key with team:read.
 */
import type { Command } from 'commander'
import type { AuditEntry } from '../../contract/team.js'
import { action, jsonOption } from '../action.js'
import { requireKey, type Ctx } from '../../session/context.js'
import { UsageError } from '../../session/exit-codes.js'
import { columnsOption, emit, note, printRows, when, type Column } from '../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../paging.js'
import { parseInstant } from '../parse.js'
import { MEMBER_ARG_HELP, memberIdOf, memberName, roster } from './team/shared.js'

export interface AuditOpts extends PageFlags {
  member?: string
  action?: string
  resourceType?: string
  /** ISO 8601 (parsed by parseInstant). */
  since?: string
  until?: string
}

/** `names`: on a terminal, MEMBER shows the member's name (`Ana (removed)` for a removed one). */
export function auditColumns(tty: boolean, names?: ReadonlyMap<string, string>): Column<AuditEntry>[] {
  return [
    { header: 'ID', value: (e) => e.id, only: 'piped' },
    { header: 'AT', value: (e) => when(e.at, tty) },
    { header: 'ACTION', value: (e) => e.action },
    { header: 'TYPE', name: 'resource-type', value: (e) => e.resourceType, only: 'piped' },
    { header: 'RESOURCE', value: (e) => e.resourceId ?? '', fit: 'flex' },
    {
      header: 'MEMBER',
      value: (e) => (e.memberId === null ? '' : (names?.get(e.memberId) ?? e.memberId)),
      drop: 2,
    },
    { header: 'KEY', value: (e) => e.keyId ?? '', drop: 3 },
    { header: 'IP', value: (e) => e.ip ?? '', drop: 1 },
    { header: 'STATUS', value: (e) => e.statusCode, drop: 4 },
  ]
}

export async function runAudit(opts: AuditOpts, ctx: Ctx): Promise<void> {
  if (opts.since && opts.until && Date.parse(opts.since) > Date.parse(opts.until))
    throw new UsageError('--since must not be after --until')
  await requireKey(ctx)
  const client = await ctx.client()
  // Removed members too: their writes stay in the log under their name.
  const members = roster(client, { removed: true })
  const memberId = opts.member ? await memberIdOf(members, opts.member, (text) => note(ctx, text)) : undefined
  const page = await fetchList(ctx, opts, (query) =>
    client.team.auditLog({
      ...query,
      ...(memberId ? { memberId } : {}),
      ...(opts.action ? { action: opts.action } : {}),
      ...(opts.resourceType ? { resourceType: opts.resourceType } : {}),
      ...(opts.since ? { since: opts.since } : {}),
      ...(opts.until ? { until: opts.until } : {}),
    }),
  )
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No audit entries match.')
    // A person reads names; a pipe keeps the ids (scripts join on them).
    const known = ctx.isTTY ? await members().catch(() => []) : []
    const names = new Map(known.map((m) => [m.id, memberName(m)]))
    await printRows(ctx, page.data, auditColumns(ctx.isTTY, names))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(program: Command): void {
  const audit = program
    .command('audit')
    .description('the audit log: successful writes, newest first (who, what, when; needs team:read)')
    .option(
      '--member <member>',
      `only writes by this member: ${MEMBER_ARG_HELP}, removed members too (a current one wins over a removed one of the same e-mail)`,
    )
    .option('--action <action>', 'only this action, e.g. link.create, key.revoke')
    .option('--resource-type <type>', 'only this resource type, e.g. link, key, webhook')
    .option('--since <when>', 'from: ISO date/time, or 7d/12h/90m/2w ago', (v) => parseInstant(v, 'start'))
    .option('--until <when>', 'to: ISO date/time, now, or a duration ago', (v) => parseInstant(v, 'end'))
  jsonOption(columnsOption(pageOptions(audit), auditColumns(false))).action(
    action<AuditOpts>((_args, opts, ctx) => runAudit(opts, ctx)),
  )
}

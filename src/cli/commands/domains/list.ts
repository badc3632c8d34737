/** `linkctl domains list`: one page of custom domains, by verification status. */
import { Option, type Command } from 'commander'
import type { Domain } from '../../../contract/domains.js'
import { DOMAIN_VERIFICATION_STATUSES } from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows, when, type Column } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'

export const domainColumns = (tty: boolean): Column<Domain>[] => [
  { header: 'ID', value: (d) => d.id },
  { header: 'DOMAIN', value: (d) => d.domain, fit: 'flex' },
  // A root redirect on a safety list answers a warning page: said as a flagged link's status is.
  {
    header: 'VERIFICATION',
    value: (d) => (d.rootRedirectFlagged ? `${d.verificationStatus}, root flagged` : d.verificationStatus),
  },
  { header: 'SSL', value: (d) => d.sslStatus ?? '', drop: 1 },
  { header: 'DEFAULT', value: (d) => (d.isDefault ? 'yes' : ''), drop: 2 },
  { header: 'CREATED', value: (d) => when(d.createdAt, tty), drop: 3 },
]

export async function runDomainsList(
  opts: PageFlags & { status?: Domain['verificationStatus'] },
  ctx: Ctx,
): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, opts, (query) =>
    client.domains.list({
      ...query,
      ...(opts.status ? { verificationStatus: opts.status } : {}),
    }),
  )
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY)
      return note(ctx, 'No custom domains yet: linkctl domains add <domain>')
    await printRows(ctx, page.data, domainColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(domains: Command): void {
  const list = pageOptions(domains.command('list').alias('ls').description('list custom domains'))
  list.addOption(
    new Option('--status <status>', 'only this verification status').choices(DOMAIN_VERIFICATION_STATUSES),
  )
  jsonOption(columnsOption(list, domainColumns(false))).action(
    action<PageFlags>((_a, opts, ctx) => runDomainsList(opts, ctx)),
  )
}

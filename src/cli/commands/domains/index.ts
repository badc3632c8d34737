/** `linkctl domains ...`: custom domains over /api/domains. */
import { Option, type Command } from 'commander'
import type { Domain } from '../../../contract/domains.js'
import { DOMAIN_VERIFICATION_STATUSES, PAGE_SIZES } from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../context.js'
import { CliError, EXIT, UsageError } from '../../exit-codes.js'
import { emit, note, printRecord, printRows, type Column, type Field } from '../../output.js'
import { intArg } from '../../parse.js'

interface IdOpts {
  id: string
}

const recordColumns: Column<Domain['dnsRecords'][number]>[] = [
  { header: 'TYPE', value: (r) => r.type },
  { header: 'NAME', value: (r) => r.name },
  { header: 'VALUE', value: (r) => r.value },
  { header: 'STATUS', value: (r) => r.status },
]

/** The records as zone-file lines, ready to paste into a DNS console or a zone file. */
export function zoneLines(d: Domain): string {
  const width = Math.max(...d.dnsRecords.map((r) => r.name.length)) + 1
  return d.dnsRecords
    .map((r) => {
      const value = r.type === 'TXT' ? `"${r.value}"` : r.type === 'CNAME' ? `${r.value}.` : r.value
      return `  ${`${r.name}.`.padEnd(width + 1)}  3600  IN  ${r.type.padEnd(5)}  ${value}`
    })
    .join('\n')
}

function domainFields(d: Domain): Field[] {
  return [
    ['ID', d.id],
    ['DOMAIN', d.domain],
    ['VERIFICATION', d.verificationStatus],
    ['SSL', d.sslStatus ?? ''],
    ['DEFAULT', String(d.isDefault)],
    ['METHOD', d.verificationMethod],
    ['VERIFIED AT', d.verifiedAt ?? ''],
    ['SSL EXPIRES', d.sslExpiresAt ?? ''],
    ['ROOT REDIRECT', d.rootRedirectUrl ?? ''],
    ['CREATED', d.createdAt],
  ]
}

/** A domain, then its DNS records (a table and paste-ready zone lines on a terminal). */
async function showDomain(ctx: Ctx, d: Domain): Promise<void> {
  await printRecord(ctx, domainFields(d))
  if (!ctx.isTTY) return printRows(ctx, d.dnsRecords, recordColumns)
  ctx.stdout.write('\nDNS records:\n')
  await printRows(ctx, d.dnsRecords, recordColumns)
  if (d.verificationStatus !== 'verified')
    ctx.stdout.write(
      `\nCreate these records at your DNS provider (zone-file form):\n\n${zoneLines(d)}\n\n` +
        `Then run: linkctl domains verify ${d.id}\n`,
    )
}

export async function runDomainsAdd(opts: { domain: string }, ctx: Ctx): Promise<void> {
  if (!opts.domain) throw new UsageError('give the domain, e.g. linkctl domains add go.example.com')
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.add({ domain: opts.domain })
  await emit(ctx, d, () => showDomain(ctx, d))
}

export async function runDomainsList(
  opts: { page?: number; limit?: string; status?: Domain['verificationStatus'] },
  ctx: Ctx,
): Promise<void> {
  await requireKey(ctx)
  const page = await (
    await ctx.client()
  ).domains.list({
    ...(opts.page !== undefined ? { page: opts.page } : {}),
    ...(opts.limit !== undefined ? { limit: Number(opts.limit) } : {}),
    ...(opts.status ? { verificationStatus: opts.status } : {}),
  })
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY)
      return note(ctx, 'No custom domains yet: linkctl domains add <domain>')
    await printRows(ctx, page.data, [
      { header: 'ID', value: (d) => d.id },
      { header: 'DOMAIN', value: (d) => d.domain },
      { header: 'VERIFICATION', value: (d) => d.verificationStatus },
      { header: 'SSL', value: (d) => d.sslStatus ?? '' },
      { header: 'DEFAULT', value: (d) => (d.isDefault ? 'yes' : '') },
      { header: 'CREATED', value: (d) => d.createdAt },
    ])
  })
}

export async function runDomainsGet(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.get(opts.id)
  await emit(ctx, d, () => showDomain(ctx, d))
}

export async function runDomainsVerify(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.verify(opts.id)
  await emit(ctx, d, () => showDomain(ctx, d))
  if (d.verificationStatus === 'failed')
    throw new CliError(
      `${d.domain} is not verified: fix the records marked Failed and verify again`,
      EXIT.error,
    )
}

export async function runDomainsCheck(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const p = await (await ctx.client()).domains.checkPropagation(opts.id)
  await emit(ctx, p, async () => {
    const rows = p.records.flatMap((r) => r.resolvers.map((a) => ({ r, a })))
    await printRows(ctx, rows, [
      { header: 'RESOLVER', value: (x) => x.a.resolver },
      { header: 'TYPE', value: (x) => x.r.type },
      { header: 'NAME', value: (x) => x.r.name },
      { header: 'STATUS', value: (x) => x.a.status },
      { header: 'FOUND', value: (x) => x.a.found.join(' ') || x.a.error || '' },
    ])
    if (ctx.isTTY)
      note(ctx, p.propagated ? 'Propagated on every resolver.' : 'Not propagated everywhere yet.')
  })
}

export async function runDomainsSsl(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const s = await (await ctx.client()).domains.ssl(opts.id)
  await emit(ctx, s, () =>
    printRecord(ctx, [
      ['DOMAIN', s.domain],
      ['STATUS', s.sslStatus ?? ''],
      ['ISSUER', s.issuer ?? ''],
      ['SERIAL', s.serialNumber ?? ''],
      ['VALID FROM', s.validFrom ?? ''],
      ['VALID TO', s.validTo ?? ''],
      ['DAYS LEFT', s.daysRemaining ?? ''],
      ['NEXT RENEWAL', s.nextRenewalAt ?? ''],
      ['RENEWED AT', s.renewedAt ?? ''],
      ['ERROR', s.error ?? ''],
    ]),
  )
}

export async function runDomainsSetDefault(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.setDefault(opts.id)
  if (ctx.json) await emit(ctx, d, () => undefined)
  else note(ctx, `${d.domain} is now the default domain for new links`)
}

export async function runDomainsUpdate(
  opts: IdOpts & { default?: boolean; rootRedirect?: string },
  ctx: Ctx,
): Promise<void> {
  const body = {
    ...(opts.default !== undefined ? { isDefault: opts.default } : {}),
    ...(opts.rootRedirect !== undefined
      ? { rootRedirectUrl: opts.rootRedirect === '' ? null : opts.rootRedirect }
      : {}),
  }
  if (!Object.keys(body).length)
    throw new UsageError('nothing to update: pass --default, --no-default or --root-redirect')
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.update(opts.id, body)
  await emit(ctx, d, () => printRecord(ctx, domainFields(d)))
}

export async function runDomainsDelete(opts: IdOpts & { yes?: boolean }, ctx: Ctx): Promise<void> {
  if (!opts.yes) {
    if (!ctx.canPrompt) throw new UsageError('refusing to delete without confirmation: pass --yes')
    if (!(await ctx.prompt.confirm(`Delete domain ${opts.id}? Its links move to the shared domain.`)))
      throw new CliError('aborted', EXIT.error)
  }
  await requireKey(ctx)
  await (await ctx.client()).domains.delete(opts.id)
  note(ctx, `Deleted domain ${opts.id}`)
}

export async function runDomainsStats(_opts: object, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const s = await (await ctx.client()).domains.stats()
  await emit(ctx, s, () =>
    printRecord(ctx, [
      ['TOTAL', s.totalDomains],
      ['ACTIVE', s.activeDomains],
      ['WITH SSL', s.domainsWithSsl],
      ['CLICKS', s.totalClicks],
    ]),
  )
}

const idAction = <O>(run: (opts: O & IdOpts, ctx: Ctx) => Promise<void>) =>
  action<O>(([id], opts, ctx) => run({ ...opts, id: id ?? '' }, ctx))

export function register(program: Command): void {
  const domains = program.command('domains').description('manage custom domains')
  jsonOption(
    domains
      .command('add')
      .description('add a custom domain and print the DNS records to create')
      .argument('<domain>', 'host name, e.g. go.example.com'),
  ).action(action<object>(([domain], _opts, ctx) => runDomainsAdd({ domain: domain ?? '' }, ctx)))

  const list = domains.command('list').alias('ls').description('list custom domains')
  list.option('--page <n>', 'page number, from 1', intArg(1))
  list.addOption(new Option('--limit <n>', 'page size').choices(PAGE_SIZES.map(String)))
  list.addOption(
    new Option('--status <status>', 'only this verification status').choices(DOMAIN_VERIFICATION_STATUSES),
  )
  jsonOption(list).action(
    action<{ page?: number; limit?: string }>((_a, opts, ctx) => runDomainsList(opts, ctx)),
  )

  for (const [verb, run, text] of [
    ['get', runDomainsGet, 'show a domain with its DNS records and their status'],
    ['verify', runDomainsVerify, 'check the DNS records now (exit 1 when verification failed)'],
    ['check', runDomainsCheck, 'DNS propagation per resolver and record'],
    ['ssl', runDomainsSsl, 'certificate details: issuer, validity, status, next renewal'],
    ['set-default', runDomainsSetDefault, 'make a verified domain the default for new links'],
  ] as const)
    jsonOption(domains.command(verb).description(text).argument('<id>', 'domain id (dom_...)')).action(
      idAction(run),
    )

  jsonOption(
    domains
      .command('update')
      .description('change domain settings')
      .argument('<id>', 'domain id')
      .option('--default', 'make it the default domain for new links')
      .option('--no-default', 'stop being the default (new links use the shared domain)')
      .option('--root-redirect <url>', 'where the bare domain redirects ("" removes it)'),
  ).action(idAction<{ default?: boolean; rootRedirect?: string }>(runDomainsUpdate))

  domains
    .command('delete')
    .alias('rm')
    .description('delete a domain (its links fall back to the shared domain)')
    .argument('<id>', 'domain id')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(idAction<{ yes?: boolean }>(runDomainsDelete))

  jsonOption(domains.command('stats').description('custom domain statistics')).action(
    action<object>((_a, opts, ctx) => runDomainsStats(opts, ctx)),
  )
}

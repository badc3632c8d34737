/**
 * What the `domains` verbs share: a domain named by its name or its id, and how a domain and its
 * DNS records look on the terminal.
 */
import type { Domain } from '../../../contract/domains.js'
import { PAGE_SIZES } from '../../../contract/limits.js'
import { idAction, type ActionExtra } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { CliError, EXIT } from '../../../session/exit-codes.js'
import { printRecord, printRows, visible, warn, when, type Column, type Field } from '../../output.js'

/** A verb that names one domain by id. */
export interface IdOpts {
  id: string
}

export const DOMAIN_ARGUMENT = 'domain name (go.example.com) or id (dom_...)'

/** The id of a domain given by id (`dom_…`) or by name, looked up in the organization's list. */
export async function domainId(ctx: Ctx, nameOrId: string): Promise<string> {
  if (nameOrId.startsWith('dom_')) return nameOrId
  await requireKey(ctx)
  const client = await ctx.client()
  const wanted = nameOrId.toLowerCase().replace(/\.$/, '')
  const limit = PAGE_SIZES[PAGE_SIZES.length - 1]
  for (let page = 1; ; page++) {
    const found = await client.domains.list({ page, limit })
    const match = found.data.find((d) => d.domain === wanted)
    if (match) return match.id
    if (!found.hasMore) break
  }
  throw new CliError(
    `no domain named ${nameOrId} in this organization (see: linkctl domains list)`,
    EXIT.notFound,
  )
}

/** Like idAction, for the domain verbs: the argument may be the domain's name or its id. */
export function domainAction<O>(
  run: (opts: O & { id: string }, ctx: Ctx) => Promise<void>,
  extra?: ActionExtra,
) {
  return idAction<O>(async (opts, ctx) => run({ ...opts, id: await domainId(ctx, opts.id) }, ctx), extra)
}

/** `--method`: the DNS records of the domain type (default), or a file on its web server. */
export const METHODS = ['dns', 'file'] as const
export const METHOD_DESCRIPTION =
  'how to prove ownership: dns (a TXT record beside the CNAME or A record), or file (a file on the web server now answering the domain; for a domain still served elsewhere)'

/** The API's verification method for `--method` on a domain: FILE, or the DNS method of its type. */
export function apiMethod(
  method: (typeof METHODS)[number],
  d?: Domain,
): Domain['verificationMethod'] | undefined {
  if (method === 'file') return 'FILE'
  if (!d) return undefined
  return d.dnsRecords.some((r) => r.type === 'A') ? 'TXT' : 'CNAME'
}

/** A row of the records table: a DNS record, or the verification file (TYPE FILE, its URL and body). */
type RecordRow = Pick<Domain['dnsRecords'][number], 'name' | 'value' | 'status'> & { type: string }

/** The DNS records, then the verification file of a FILE domain. */
function recordRows(d: Domain): RecordRow[] {
  const f = d.verificationFile
  return f ? [...d.dnsRecords, { type: 'FILE', name: f.url, value: f.body, status: f.status }] : d.dnsRecords
}

const recordColumns: Column<RecordRow>[] = [
  { header: 'TYPE', value: (r) => r.type },
  { header: 'NAME', value: (r) => r.name },
  { header: 'VALUE', value: (r) => r.value },
  { header: 'STATUS', value: (r) => r.status },
]

/** The records as zone-file lines, ready to paste into a DNS console or a zone file. */
export function zoneLines(records: Domain['dnsRecords']): string {
  const width = Math.max(...records.map((r) => r.name.length)) + 1
  return records
    .map((r) => {
      const value = r.type === 'TXT' ? `"${r.value}"` : r.type === 'CNAME' ? `${r.value}.` : r.value
      return `  ${`${r.name}.`.padEnd(width + 1)}  3600  IN  ${r.type.padEnd(5)}  ${value}`
    })
    .join('\n')
}

/**
 * The records a warning says cannot work as they stand: the warnings concern the CNAME or A record
 * (their target comes from linkd's settings); the TXT challenge never depends on them.
 */
export function blockedRecords(d: Domain): Domain['dnsRecords'] {
  if (d.warnings.length === 0 || d.verificationStatus === 'verified') return []
  return d.dnsRecords.filter((r) => r.type !== 'TXT')
}

export function domainFields(d: Domain, tty: boolean): Field[] {
  return [
    ['ID', d.id],
    ['DOMAIN', d.domain],
    ['VERIFICATION', d.verificationStatus],
    ['SSL', d.sslStatus ?? ''],
    ['DEFAULT', String(d.isDefault)],
    ['METHOD', d.verificationMethod],
    ['VERIFIED AT', when(d.verifiedAt, tty)],
    ['SSL EXPIRES', when(d.sslExpiresAt, tty)],
    ['ROOT REDIRECT', d.rootRedirectUrl ?? ''],
    // As a flagged link's FLAGGED: its root answers a warning page instead of the redirect.
    ...(d.rootRedirectFlagged
      ? ([
          [
            'FLAGGED',
            `${d.rootRedirectFlagged.host} is on the safety list "${d.rootRedirectFlagged.list}" (since ${when(d.rootRedirectFlagged.flaggedAt, tty)}): visits to / get a warning page`,
          ],
        ] as Field[])
      : []),
    ['CREATED', when(d.createdAt, tty)],
  ]
}

/**
 * A domain, its warnings (stderr), then all its DNS records (a table; on a terminal also
 * paste-ready zone lines of the records that can be created now).
 */
export async function showDomain(ctx: Ctx, d: Domain): Promise<void> {
  await printRecord(ctx, domainFields(d, ctx.isTTY))
  for (const w of d.warnings) warn(ctx, w)
  if (!ctx.isTTY) return printRows(ctx, recordRows(d), recordColumns)
  ctx.stdout.write(d.verificationFile ? '\nDNS records and verification file:\n' : '\nDNS records:\n')
  await printRows(ctx, recordRows(d), recordColumns)
  if (d.verificationStatus === 'verified') return
  if (d.verificationFile) return showFileSteps(ctx, d, d.verificationFile)
  // A record no DNS provider can hold (a CNAME to 127.0.0.1.) is not offered for copying.
  const blocked = blockedRecords(d)
  const ready = d.dnsRecords.filter((r) => !blocked.includes(r))
  const these = ready.length === 1 ? 'this record' : 'these records'
  ctx.stdout.write(`\nCreate ${these} at your DNS provider (zone-file form):\n\n${zoneLines(ready)}\n\n`)
  if (blocked.length > 0)
    ctx.stdout.write(
      `The ${blocked.map((r) => r.type).join(' and ')} record waits for the setting in the warning above: ` +
        `fix it, restart linkd, then run: linkctl domains get ${d.domain}\n`,
    )
  else ctx.stdout.write(`Then run: linkctl domains verify ${d.domain}\n`)
}

/** What to do for FILE verification: publish the file, verify, then move traffic with the record. */
function showFileSteps(ctx: Ctx, d: Domain, f: NonNullable<Domain['verificationFile']>): void {
  ctx.stdout.write(
    `\nPublish this file on the web server now answering ${visible(d.domain)} ` +
      '(plain HTTP on port 80, no redirect; whitespace around the body is ignored):\n\n' +
      `  URL   ${visible(f.url)}\n  Body  ${visible(f.body)}\n\n` +
      `Then run: linkctl domains verify ${visible(d.domain)}\n`,
  )
  const blocked = blockedRecords(d)
  const ready = d.dnsRecords.filter((r) => !blocked.includes(r))
  if (ready.length > 0)
    ctx.stdout.write(
      `When the domain's traffic should come to linkd, create this record (zone-file form):\n\n${zoneLines(ready)}\n\n`,
    )
}

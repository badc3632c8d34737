/** What the `domains` verbs share: how a domain and its DNS records look on the terminal. */
import type { Domain } from '../../../contract/domains.js'
import type { Ctx } from '../../context.js'
import { printRecord, printRows, type Column, type Field } from '../../output.js'

/** A verb that names one domain by id. */
export interface IdOpts {
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

export function domainFields(d: Domain): Field[] {
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
export async function showDomain(ctx: Ctx, d: Domain): Promise<void> {
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

/**
 * Domains: verification and certificate status with expiry, the selected domain's DNS records (and
 * verification file) in full (to copy), verify and check-propagation with their results, set default.
 */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useState } from 'react'
import type { Domain, Propagation } from '../../contract/domains.js'
import { dnsErrorText } from '../../format/cells.js'
import { troubleOf } from '../api.js'
import { Table, type TableColumn } from '../components/table.js'
import { allowed, hasScope, tint, useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useKeys } from '../hooks/use-keys.js'
import { byId, LIST_KEYS, useFollowingCursor } from '../hooks/use-list-keys.js'
import { usePoll } from '../hooks/use-poll.js'
import { plural } from '../../contract/numbers.js'

const good = (d: Domain) =>
  d.verificationStatus === 'verified' && (d.sslStatus === 'active' || d.sslStatus === 'renewing')

const COLUMNS: TableColumn<Domain>[] = [
  { header: 'DOMAIN', width: 28, value: (d) => d.domain },
  {
    header: 'VERIFIED',
    width: 9,
    value: (d) => d.verificationStatus,
    colour: (d) => (d.verificationStatus === 'verified' ? 'green' : 'yellow'),
  },
  {
    header: 'CERTIFICATE',
    width: 11,
    value: (d) => d.sslStatus ?? 'none',
    colour: (d) => (good(d) ? 'green' : 'yellow'),
  },
  { header: 'EXPIRES', width: 10, value: (d) => d.sslExpiresAt?.slice(0, 10) ?? '', drop: 1 },
  { header: 'DEFAULT', width: 7, value: (d) => (d.isDefault ? 'yes' : ''), drop: 2 },
]

/** The result of the last action, shown under the records. */
type Outcome = { domainId: string; lines: string[] }

function propagationLines(p: Propagation): string[] {
  const lines = [
    `Propagation of ${p.domain}: ${p.propagated ? 'complete' : 'not complete'} (${p.resolvers.join(', ')})`,
  ]
  for (const r of p.records) {
    const answers = r.resolvers.map((a) =>
      a.reachable
        ? `${a.resolver} ${a.status}${a.found.length ? ` (${a.found.join(', ')})` : ''}`
        : `${a.resolver} unreachable${a.error ? ` (${dnsErrorText(a.error)})` : ''}`,
    )
    lines.push(`  ${r.type} ${r.name}: ${answers.join(' · ')}`)
  }
  return lines
}

function Domains({ active, width, height }: ScreenProps) {
  const env = useTui()
  const { client } = env
  const poll = usePoll('domains', () => client.domains.list({ limit: 100 }), [client])
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const [busy, setBusy] = useState(false)
  const domains = poll.data?.data ?? []
  const listRows = Math.max(2, Math.min(domains.length, Math.floor((height - 4) / 2)))
  const pos = useFollowingCursor(domains, byId, listRows)
  const selected = domains[pos.cursor]
  const canWrite = hasScope(env, 'domains:write')

  const run = (label: string, work: () => Promise<string[]>) => {
    if (busy || !selected) return
    const domainId = selected.id
    setBusy(true)
    setOutcome({ domainId, lines: [`${label}…`] })
    work()
      .then((lines) => setOutcome({ domainId, lines }))
      .catch((err: unknown) =>
        setOutcome({ domainId, lines: [`${label} failed: ${troubleOf(err).message}`] }),
      )
      .finally(() => {
        setBusy(false)
        poll.reload()
      })
  }

  useKeys((input, key) => {
    if (pos.move(input, key)) return
    if (!selected) return
    if (input === 'p')
      return run(`Checking the propagation of ${selected.domain}`, async () =>
        propagationLines(await client.domains.checkPropagation(selected.id)),
      )
    if (
      (input === 'v' || input === 's') &&
      !allowed(env, 'domains:write', input === 'v' ? 'v (verify)' : 's (set default)')
    )
      return
    if (input === 'v')
      return run(`Verifying ${selected.domain}`, async () => {
        const d = await client.domains.verify(selected.id)
        const why = d.verificationFile?.reason
        return [
          `Verification of ${d.domain}: ${d.verificationStatus}${d.sslStatus ? `, certificate ${d.sslStatus}` : ''}`,
          ...(why && d.verificationStatus !== 'verified' ? [`  ${why}`] : []),
        ]
      })
    if (input === 's')
      return run(`Making ${selected.domain} the default`, async () => {
        const d = await client.domains.setDefault(selected.id)
        return [`${d.domain} is now the default domain for new links`]
      })
  }, active)

  if (!poll.data) return <Text dimColor>loading…</Text>
  if (domains.length === 0)
    return <Text>No custom domains yet: add one with linkctl domains add go.example.com</Text>
  return (
    <Box flexDirection="column">
      <Text
        dimColor
      >{`${plural(poll.data.total, 'domain')} · p check propagation${canWrite ? ' · v verify · s set default' : ''}`}</Text>
      <Table
        columns={COLUMNS}
        rows={domains.slice(pos.top, pos.top + listRows)}
        width={width}
        selected={pos.cursor - pos.top}
        color={env.color}
      />
      {selected ? (
        <Box flexDirection="column" marginTop={1}>
          {selected.verificationFile ? (
            <FileSteps domain={selected} file={selected.verificationFile} />
          ) : null}
          <Text bold>
            {selected.verificationFile
              ? `DNS record of ${selected.domain}, to create when its traffic should come here:`
              : `DNS records of ${selected.domain} (${selected.verificationMethod}), to create at its DNS provider:`}
          </Text>
          {selected.dnsRecords.map((r) => (
            // Name and value each on a line of their own, whole, to copy.
            <Box key={r.type + r.name} flexDirection="column">
              <Text>{`${r.type.padEnd(6)}${r.name}  (${r.status.toLowerCase()})`}</Text>
              <Text>{`      ${r.value}`}</Text>
            </Box>
          ))}
          {selected.warnings.map((w) => (
            <Text key={w} color={tint(env, 'yellow')}>{`warning: ${w}`}</Text>
          ))}
          {outcome?.domainId === selected.id
            ? outcome.lines.map((line, i) => <Text key={i}>{line}</Text>)
            : null}
        </Box>
      ) : null}
    </Box>
  )
}

/** FILE verification: the URL and body to publish (each whole on its line, to copy) and the last check. */
function FileSteps({ domain, file }: { domain: Domain; file: NonNullable<Domain['verificationFile']> }) {
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text
        bold
      >{`Verification file of ${domain.domain} (${file.status.toLowerCase()}), to publish on the web server now answering it (plain HTTP, no redirect):`}</Text>
      <Text>{`URL   ${file.url}`}</Text>
      <Text>{`Body  ${file.body}`}</Text>
      {file.reason ? <Text>{`Last check: ${file.reason}`}</Text> : null}
    </Box>
  )
}

export const domains: ScreenDef = {
  id: 'domains',
  title: 'Domains',
  scope: 'domains:read',
  keys: [
    ...LIST_KEYS,
    { keys: 'p', does: 'check the propagation of the DNS records (each resolver’s answer)' },
    { keys: 'v', does: 'verify the domain now (domains:write)' },
    { keys: 's', does: 'make it the default domain for new links (domains:write)' },
  ],
  render: (props) => <Domains {...props} />,
}

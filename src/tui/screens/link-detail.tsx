/** A link's detail: its figures, a click sparkline (last 48 hours) that follows each refresh, top dimensions. */
import { Box } from 'ink'
import { Drawing, Text } from '../components/text.js'
import { useEffect, useState } from 'react'
import { troubleOf } from '../api.js'
import type { Link, LinkAnalytics } from '../../contract/links.js'
import { truncate } from '../../format/cells.js'
import { sparkline } from '../components/sparkline.js'
import { hasScope, useTui } from '../context.js'
import { usePoll } from '../hooks/use-poll.js'

const HOURS = 48

function Top(props: { title: string; rows: [string, number][] }) {
  return (
    <Box flexDirection="column" marginRight={2} width={24} flexShrink={0}>
      <Text bold>{props.title}</Text>
      {props.rows.length === 0 ? <Text dimColor>none yet</Text> : null}
      {props.rows.slice(0, 5).map(([name, clicks]) => (
        <Text
          key={name}
          wrap="truncate"
        >{`${truncate(name, 16).padEnd(17)}${String(clicks).padStart(6)}`}</Text>
      ))}
    </Box>
  )
}

/** The link's QR code drawn with text blocks (the same drawing as `linkctl links qr`). */
function QrPreview({ link }: { link: Link }) {
  const env = useTui()
  const [drawing, setDrawing] = useState<{ qr: string } | { error: string } | null>(null)
  useEffect(() => {
    let alive = true
    import('../../format/qr.js')
      .then((m) => m.terminalQr(env.client, link))
      .then((text) => alive && setDrawing({ qr: text.trimEnd() }))
      .catch((err: unknown) => alive && setDrawing({ error: `no QR code: ${troubleOf(err).message}` }))
    return () => {
      alive = false
    }
  }, [env.client, link])
  if (drawing === null) return <Text>drawing the QR code…</Text>
  return 'qr' in drawing ? <Drawing>{drawing.qr}</Drawing> : <Text>{drawing.error}</Text>
}

export function LinkDetail({ link, width, qr }: { link: Link; width: number; qr: boolean }) {
  const env = useTui()
  const canRead = hasScope(env, 'analytics:read')
  const poll = usePoll<LinkAnalytics | null>(
    `link ${link.id}`,
    () =>
      canRead
        ? env.client.analytics.link(link.id, {
            startDate: new Date(Date.now() - (HOURS - 1) * 3_600_000).toISOString(),
            interval: 'hour',
          })
        : Promise.resolve(null),
    [link.id, canRead],
  )
  const a = poll.data
  return (
    <Box flexDirection="column">
      <Text bold>{`${link.shortUrl}  →  ${link.destinationUrl}`}</Text>
      <Text>
        {`${link.title ?? '(no title)'} · ${link.status} · ${link.redirectType} · ${link.clicks} clicks in all`}
        {link.tags.length ? ` · tags ${link.tags.join(', ')}` : ''}
      </Text>
      {qr ? (
        <QrPreview link={link} />
      ) : !canRead ? (
        <Text dimColor>Click analytics need the scope analytics:read.</Text>
      ) : !a ? (
        <Text dimColor>loading analytics…</Text>
      ) : (
        <Box flexDirection="column" marginTop={1}>
          <Text>{`Clicks, last ${HOURS} hours: ${a.totalClicks} (${a.uniqueVisitors} visitors, ${a.qrScans} QR scans, ${a.botDetection.count} bots)`}</Text>
          <Text>
            {sparkline(
              a.timeSeries.map((p) => p.clicks),
              Math.max(10, width - 2),
            )}
          </Text>
          <Box marginTop={1}>
            <Top title="Countries" rows={a.geography.map((g) => [g.country, g.clicks])} />
            <Top title="Referrers" rows={a.referrers.map((r) => [r.domain, r.clicks])} />
            <Top title="Devices" rows={a.devices.map((d) => [String(d.device), Number(d.clicks)])} />
          </Box>
        </Box>
      )}
    </Box>
  )
}

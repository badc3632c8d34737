/**
 * A link's (or a smart link's) detail: its figures and options, a click sparkline (last 48 hours)
 * that follows each refresh, top dimensions, each variant's figures, a smart link's platform
 * breakdown, and the installs it brought with their players' revenue per game.
 */
import { Box } from 'ink'
import { Drawing, Text } from '../components/text.js'
import { useEffect, useState, type ReactNode } from 'react'
import { troubleOf } from '../api.js'
import type { Link } from '../../contract/links.js'
import type { LinkAnalytics } from '../../contract/click-analytics.js'
import type { PlatformShare, SmartLink } from '../../contract/smart-links.js'
import { ruleText } from '../../format/link-rules.js'
import { variantText } from '../../format/link-variants.js'
import { fitHead, money, truncate } from '../../format/cells.js'
import { plural } from '../../contract/numbers.js'
import { sparkline } from '../components/sparkline.js'
import { hasScope, useRelearnWhile, useTui } from '../context.js'
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

/** The link's QR code drawn with text blocks (the same drawing as `linkctl links qr`), in `rows` lines. */
function QrPreview({ link, rows }: { link: Link; rows: number }) {
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
  return 'qr' in drawing ? (
    <Drawing rows={rows} tooTall={`The QR code of ${link.shortCode} does not fit`}>
      {drawing.qr}
    </Drawing>
  ) : (
    <Text>{drawing.error}</Text>
  )
}

/** The options a link has, only those set (forwarding the query is the default: shown when off), and a safety flag. */
export function optionLines(link: Link): string[] {
  const flags = [
    ...(link.maxClicks !== null ? [`max ${link.maxClicks} clicks (${link.clicks} used)`] : []),
    ...(link.startsAt ? [`live from ${link.startsAt.slice(0, 16).replace('T', ' ')} UTC`] : []),
    ...(link.forwardQuery ? [] : ['query not forwarded']),
    ...(link.passwordProtected ? ['password protected'] : []),
    ...(link.og?.title ? [`preview “${link.og.title}”`] : link.og ? ['preview set'] : []),
  ]
  return [
    // On a safety list: visits get the warning page instead of the destination.
    ...(link.flagged
      ? [
          `flagged: ${link.flagged.host} is on the safety list "${link.flagged.list}"; visits get a warning page`,
        ]
      : []),
    ...(flags.length ? [flags.join(' · ')] : []),
    ...(link.expiredUrl ? [`once expired → ${link.expiredUrl}`] : []),
    ...link.rules.map((r, i) => `rule ${i + 1}: ${ruleText(r)}`),
    ...link.variants.map((v, i) => `variant ${i + 1}: ${variantText(v)}`),
  ]
}

type VariantFigures = NonNullable<LinkAnalytics['variants']>

/** Split destinations: each variant's weight, then what it got (clicks, visitors, installs). */
function Variants({ rows, smart }: { rows: VariantFigures; smart: boolean }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>Variants</Text>
      {rows.map((v) => (
        <Text key={v.destinationUrl} wrap="truncate">
          {`${`${v.weight}%`.padStart(4)} ${plural(v.clicks, 'click').padStart(12)} ${plural(v.uniqueVisitors, 'visitor').padStart(14)}${smart ? plural(v.installs, 'install').padStart(14) : ''}  ${v.destinationUrl}`}
        </Text>
      ))}
    </Box>
  )
}

type InstallRevenue = NonNullable<LinkAnalytics['installRevenue']>

/**
 * A smart link's clicks per platform, as bars; then the installs it brought and the revenue of
 * those players, one line per game.
 */
function Platforms(props: { rows: PlatformShare[]; installs: number | undefined; revenue: InstallRevenue }) {
  const { rows, installs, revenue } = props
  const max = Math.max(1, ...rows.map((r) => r.clicks))
  // Game ids whole, aligned.
  const gameWidth = Math.max(25, ...revenue.map((r) => r.gameId.length + 1))
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>{`Platforms${installs === undefined ? '' : ` · ${plural(installs, 'install')}`}`}</Text>
      {rows.length === 0 ? <Text dimColor>none yet</Text> : null}
      {rows.map((r) => (
        <Text key={r.platform} wrap="truncate">
          {`${r.platform.padEnd(8)}${'█'.repeat(Math.round((r.clicks / max) * 20)).padEnd(21)}${String(r.clicks).padStart(6)}  ${r.percentage.toFixed(1)}%`}
        </Text>
      ))}
      {revenue.map((r) => (
        <Text key={r.gameId} wrap="truncate">
          {`${r.gameId.padEnd(gameWidth)}${plural(r.installs, 'install').padStart(14)}  ${money(r.revenue, 2, r.currency)}`}
        </Text>
      ))}
    </Box>
  )
}

/** The click analytics of a link or smart link (by id), polled. */
function Analytics({ id, width }: { id: string; width: number }) {
  const env = useTui()
  const canRead = hasScope(env, 'analytics:read')
  useRelearnWhile(!canRead, env)
  const poll = usePoll<LinkAnalytics | null>(
    `link ${id}`,
    () =>
      canRead
        ? env.client.analytics.link(id, {
            startDate: new Date(env.clock.now() - (HOURS - 1) * 3_600_000).toISOString(),
            interval: 'hour',
          })
        : Promise.resolve(null),
    [id, canRead],
  )
  const a = poll.data
  if (!canRead) return <Text dimColor>Click analytics need the scope analytics:read.</Text>
  if (!a) return <Text dimColor>loading analytics…</Text>
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text>{`Clicks, last ${HOURS} hours: ${a.totalClicks} (${plural(a.uniqueVisitors, 'visitor')}, ${plural(a.qrScans, 'QR scan')}, ${plural(a.botDetection.count, 'bot')}${a.blockedVisits > 0 ? `, ${a.blockedVisits} blocked` : ''})`}</Text>
      <Text>
        {sparkline(
          a.timeSeries.map((p) => p.clicks),
          Math.max(10, width - 2),
        )}
      </Text>
      {a.variants ? <Variants rows={a.variants} smart={a.platforms !== undefined} /> : null}
      {a.platforms ? (
        <Platforms rows={a.platforms} installs={a.installs} revenue={a.installRevenue ?? []} />
      ) : null}
      <Box marginTop={1}>
        <Top title="Countries" rows={a.geography.map((g) => [g.country, g.clicks])} />
        <Top title="Referrers" rows={a.referrers.map((r) => [r.domain, r.clicks])} />
        <Top title="Devices" rows={a.devices.map((d) => [String(d.device), Number(d.clicks)])} />
      </Box>
    </Box>
  )
}

/**
 * The option lines a detail of `rows` lines, `width` wide, shows: at most half of its rows (a link
 * may have 20 rules and 10 variants), the last then saying how many more there are and where to
 * see them; `used`: the screen lines they take (the first wraps).
 */
export function shownOptions(link: Link, width: number, rows: number): { lines: string[]; used: number } {
  const all = optionLines(link)
  const cap = Math.max(1, Math.floor(rows / 2))
  const lines =
    all.length <= cap
      ? all
      : [...all.slice(0, cap - 1), `… ${all.length - cap + 1} more: linkctl links get ${link.shortCode}`]
  const first = lines[0] === undefined ? 0 : Math.ceil([...lines[0]].length / Math.max(1, width))
  return { lines, used: lines.length === 0 ? 0 : Math.max(1, first) + lines.length - 1 }
}

/** The lines of a link's detail of `rows` lines left under its head and options: the figures', the QR code's or the pane's. */
export function linesBelowHead(link: Link, width: number, rows: number): number {
  return rows - 2 - shownOptions(link, width, rows).used
}

/**
 * What lies under a detail's head, in the lines left: cut at the bottom when taller (its lines
 * keep their height: squeezed, Ink would draw them over each other).
 */
function Below({ children }: { children: ReactNode }) {
  return (
    <Box flexDirection="column" overflow="hidden">
      <Box flexDirection="column" flexShrink={0}>
        {children}
      </Box>
    </Box>
  )
}

/**
 * A link's detail in `rows` lines: its head, its options, then its figures. `children` (the QR
 * codes pane) take the place of the figures when given; `bare` leaves out the head and options
 * (the pane draws a code: it needs the rows).
 */
export function LinkDetail(props: {
  link: Link
  width: number
  qr: boolean
  rows: number
  bare?: boolean
  children?: ReactNode
}) {
  const { link, width, qr, children, bare, rows } = props
  const options = shownOptions(link, width, rows)
  // Each part keeps its place (null when left out): the pane below is not mounted again.
  return (
    <Box flexDirection="column">
      {bare ? null : (
        <Box flexDirection="column" flexShrink={0}>
          <Text bold wrap="truncate">{`${link.shortUrl}  →  ${link.destinationUrl}`}</Text>
          <Text wrap="truncate">
            {fitHead(
              link.title ?? '(no title)',
              ` · ${link.status} · ${link.redirectType} · ${plural(link.clicks, 'click')} in all`,
              width,
            )}
            {link.tags.length ? ` · tags ${link.tags.join(', ')}` : ''}
          </Text>
          {/* The first line (the short options) wraps; URLs are cut at the edge. */}
          {options.lines.map((line, i) => (
            <Text key={i} wrap={i === 0 ? 'wrap' : 'truncate'}>
              {line}
            </Text>
          ))}
        </Box>
      )}
      <Below>
        {children ??
          (qr ? (
            <QrPreview link={link} rows={bare ? rows : rows - 2 - options.used} />
          ) : (
            <Analytics id={link.id} width={width} />
          ))}
      </Below>
    </Box>
  )
}

/**
 * A smart link's detail: its targets and fallback, then its analytics with the platform breakdown;
 * `children` and `bare` as in LinkDetail.
 */
export function SmartLinkDetail(props: {
  link: SmartLink
  width: number
  bare?: boolean
  children?: ReactNode
}) {
  const { link, width, children } = props
  const target = (name: string, t: { url: string } | null) =>
    `${name.padEnd(9)}→ ${t ? t.url : '(the fallback)'}`
  const head = (
    <>
      <Text bold wrap="truncate">{`${link.shortUrl}  (smart link ${link.id})`}</Text>
      <Text wrap="truncate">
        {fitHead(
          link.title ?? '(no title)',
          ` · ${plural(link.clicks, 'click')} in all · click id ${link.appendClickId ? 'appended' : 'not appended'}`,
          width,
        )}
        {link.tags.length ? ` · tags ${link.tags.join(', ')}` : ''}
      </Text>
      <Text wrap="truncate">{target('iOS', link.ios)}</Text>
      <Text wrap="truncate">{target('Android', link.android)}</Text>
      <Text wrap="truncate">{target('Desktop', link.desktop)}</Text>
      <Text wrap="truncate">{target('Fallback', { url: link.fallbackUrl })}</Text>
      {link.variants.map((v, i) => (
        <Text
          key={v.destinationUrl}
          wrap="truncate"
        >{`${`variant ${i + 1}`.padEnd(9)}→ ${variantText(v)}`}</Text>
      ))}
    </>
  )
  return (
    <Box flexDirection="column">
      {props.bare ? null : (
        <Box flexDirection="column" flexShrink={0}>
          {head}
        </Box>
      )}
      <Below>{children ?? <Analytics id={link.id} width={width} />}</Below>
    </Box>
  )
}

/** Home: the daemon's health and jobs, the totals, and the events as the polls see them. */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useEffect } from 'react'
import { relativeTime } from '../../format/cells.js'
import { hasScope, tint, useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useKept, useKeptRef } from '../hooks/use-kept.js'
import { usePoll } from '../hooks/use-poll.js'
import { eventsBetween, loadHome, type HomeSnapshot, type Totals } from './home-data.js'

const FEED_MAX = 50

function uptime(seconds: number): string {
  const s = Math.floor(seconds)
  const [d, h, m] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60)]
  return d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : m > 0 ? `${m}m ${s % 60}s` : `${s}s`
}

function TotalsBox({ totals }: { totals: Totals }) {
  // An unusable key lacks every scope: say nothing per total (the status line says why).
  const { keyProblem, gaming } = useTui()
  const total = (value: number | undefined, scope: string): string =>
    value !== undefined ? String(value) : keyProblem ? '-' : `(needs ${scope})`
  const rows: [string, string][] = [
    ['links', total(totals.links, 'links:read')],
    ['clicks today', total(totals.clicksToday, 'analytics:read')],
    ['webhooks failing', total(totals.webhooksFailing, 'webhooks:read')],
    ['domains needing attention', total(totals.domainsNeedingAttention, 'domains:read')],
    ...(gaming ? [['games', total(totals.games, 'games:read')] as [string, string]] : []),
  ]
  return (
    <Box flexDirection="column" marginRight={2} flexShrink={0}>
      <Text bold>Totals</Text>
      {rows.map(([label, value]) => (
        <Text key={label}>{`${label.padEnd(28)}${value}`}</Text>
      ))}
    </Box>
  )
}

function Home({ height }: ScreenProps) {
  const env = useTui()
  const { client } = env
  const poll = usePoll('home', () => loadHome(client, (s) => hasScope(env, s), env.clock.now(), env.gaming), [
    client,
    env.gaming,
  ])
  // Kept while another tab is shown: the feed, and the last snapshot, so that what changed while
  // Home was away appears at its first poll back.
  const previous = useKeptRef<HomeSnapshot | undefined>('home.previous', undefined)
  const [feed, setFeed] = useKept<string[]>('home.feed', [])
  useEffect(() => {
    if (!poll.data || poll.data === previous.current) return
    const at = new Date().toISOString().slice(11, 19)
    const lines = eventsBetween(previous.current, poll.data, at)
    previous.current = poll.data
    if (lines.length > 0) setFeed((f) => [...f, ...lines].slice(-FEED_MAX))
  }, [poll.data, previous, setFeed])

  const snap = poll.data
  if (!snap) return <Text dimColor>{poll.trouble ? 'waiting for the daemon…' : 'loading…'}</Text>
  const h = snap.health
  const colour = h.status === 'ok' ? 'green' : h.status === 'degraded' ? 'yellow' : 'red'
  const jobs = h.jobs ?? []
  const feedRows = Math.max(1, height - 9 - Math.min(jobs.length, 6))
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text color={tint(env, colour)} bold>{`● ${h.status}`}</Text>
        {`  linkd ${h.version} · up ${uptime(h.uptimeSeconds)}`}
        {h.checks ? ` · database ${h.checks.database} · migrations ${h.checks.migrations}` : ''}
        {h.clicks ? ` · clicks buffered ${h.clicks.buffered}, dropped ${h.clicks.dropped}` : ''}
      </Text>
      <Box marginTop={1}>
        <TotalsBox totals={snap.totals} />
        <Box flexDirection="column">
          <Text bold>Jobs</Text>
          {jobs.length === 0 ? <Text dimColor>none reported</Text> : null}
          {jobs.slice(0, 6).map((j) => (
            <Text
              key={j.name}
              color={j.lastStatus === 'error' ? tint(env, 'red') : undefined}
              wrap="truncate"
            >
              {`${j.name.padEnd(24)}${(j.lastStatus ?? 'never run').padEnd(10)}${
                j.lastRunAt ? relativeTime(Date.parse(j.lastRunAt), env.clock.now()) : ''
              }`}
            </Text>
          ))}
        </Box>
      </Box>
      <Box flexDirection="column" marginTop={1}>
        <Text bold>Events</Text>
        {feed.length === 0 ? (
          <Text dimColor>nothing yet: new links, clicks, job runs and webhook failures appear here</Text>
        ) : null}
        {feed.slice(-feedRows).map((line, i) => (
          <Text key={i} wrap="truncate">
            {line}
          </Text>
        ))}
      </Box>
    </Box>
  )
}

export const home: ScreenDef = {
  id: 'home',
  title: 'Home',
  scope: null,
  keys: [],
  render: (props) => <Home {...props} />,
}

/**
 * A game's overview over a range: DAU, MAU, revenue by type, ARPU/ARPPU, session length, daily
 * revenue and paying players as sparklines, the retention triangle in its colour bands,
 * top countries, the leaderboard, the top event types (custom names marked *) and the links that
 * brought the most installs (attribution by link).
 */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import type { Game } from '../../contract/games.js'
import type { Events, Geography, Leaderboard, Overview, Retention } from '../../contract/gaming.js'
import type { AttributionReport, RevenueReport } from '../../contract/gaming-revenue.js'
import { RETENTION_DAYS } from '../../contract/limits.js'
import { countryName, fitHead, money, truncate } from '../../format/cells.js'
import { sparkline } from '../components/sparkline.js'
import { tint, useTui, type TuiEnv } from '../context.js'
import { usePoll } from '../hooks/use-poll.js'

export const RANGES = [7, 30, 90] as const
/** The retention report's bands (each cell's `band`) as terminal colours (amber: orange). */
const BAND_COLOURS: Record<string, string | undefined> = {
  green: 'green',
  yellow: 'yellow',
  amber: '#ffa500',
  red: 'red',
}

interface GameFigures {
  overview: Overview
  revenue: RevenueReport
  retention: Retention
  geography: Geography
  leaderboard: Leaderboard
  events: Events
  links: AttributionReport
}

async function loadGame(env: TuiEnv, game: string, days: number): Promise<GameFigures> {
  const dayIso = (msAgo: number) => new Date(env.clock.now() - msAgo).toISOString().slice(0, 10)
  const range = { startDate: dayIso((days - 1) * 86_400_000), endDate: dayIso(0) }
  const a = env.client.analytics
  const [overview, revenue, retention, geography, leaderboard, events, links] = await Promise.all([
    a.gameOverview(game, range),
    a.gameRevenue(game, { ...range, groupBy: 'day' }),
    a.gameRetention(game, range),
    a.gameGeography(game, range),
    a.gameLeaderboard(game, { ...range, limit: 4 }),
    a.gameEvents(game, range),
    a.gameAttribution(game, { ...range, groupBy: 'link' }),
  ])
  return { overview, revenue, retention, geography, leaderboard, events, links }
}

/** The longest named event type (achievement_unlocked); a longer custom name is cut with …. */
const EVENT_TYPE_WIDTH = 20

function duration(seconds: number): string {
  const s = Math.round(seconds)
  return s >= 60 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${s}s`
}

function RetentionTriangle({ retention, rows }: { retention: Retention; rows: number }) {
  const env = useTui()
  const cohorts = retention.data.slice(-rows)
  return (
    <Box flexDirection="column" flexShrink={0}>
      <Text
        bold
      >{`Retention ${'cohort'.padEnd(6)}${RETENTION_DAYS.map((d) => `D${d}`.padStart(6)).join('')}`}</Text>
      {cohorts.map((c) => (
        <Box key={c.cohort}>
          <Text>{`${c.cohort.padEnd(11)}${String(c.size).padStart(5)}`}</Text>
          {RETENTION_DAYS.map((d) => {
            const cell = c.days[`d${d}`]
            return (
              <Text key={d} color={cell ? tint(env, BAND_COLOURS[cell.band] ?? '') || undefined : undefined}>
                {(cell ? `${Math.round(cell.percentage)}%` : '').padStart(6)}
              </Text>
            )
          })}
        </Box>
      ))}
      {cohorts.length === 0 ? <Text dimColor>no installs in the range</Text> : null}
    </Box>
  )
}

export function GameOverview({
  game,
  days,
  width,
  height,
}: {
  game: Game
  days: number
  width: number
  height: number
}) {
  const env = useTui()
  const poll = usePoll(`game ${game.id}`, () => loadGame(env, game.id, days), [game.id, days])
  const f = poll.data
  if (!f) return <Text dimColor>{`loading ${game.name}…`}</Text>
  const o = f.overview
  const currency = f.revenue.currency || game.reportingCurrency
  const cash = (n: number) => money(n, 2, currency)
  // The links that brought the most installs (a deleted one by its id), revenue aligned.
  const links = [...f.links.data].sort((x, y) => y.installs - x.installs || y.revenue - x.revenue).slice(0, 4)
  const revenueWidth = Math.max(0, ...links.map((r) => cash(r.revenue).length))
  const countries = f.geography.data.slice(0, 4).map((g) => ({ ...g, name: countryName(g.country) }))
  const countryWidth = Math.max(4, ...countries.map((g) => g.name.length + 1))
  const spark = (values: number[]) => sparkline(values, Math.max(10, Math.min(60, width - 30)))
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {fitHead(
          game.name,
          // A paused or archived game says so: its figures stopped growing because events are refused.
          ` (${game.id}) · ${game.status === 'active' ? '' : `${game.status}: events refused · `}` +
            `${o.range.startDate} to ${o.range.endDate} · [ ] change the range (${days} days)`,
          width,
        )}
      </Text>
      <Text>{`DAU ${o.dau} · MAU ${o.mau} · ARPU ${cash(o.arpu)} · ARPPU ${cash(o.arppu)} · session ${duration(o.avgSessionSeconds)}`}</Text>
      <Text>{`Revenue ${cash(o.revenue.total)}: IAP ${cash(o.revenue.iap)} · ads ${cash(o.revenue.ad)} · subscriptions ${cash(o.revenue.subscription)}`}</Text>
      <Text>{`Revenue a day   ${spark(f.revenue.data.map((r) => r.total))}`}</Text>
      <Text>{`Paying players  ${spark(f.revenue.data.map((r) => r.payingUsers))}`}</Text>
      <Box marginTop={1}>
        <RetentionTriangle retention={f.retention} rows={Math.max(2, height - 15)} />
      </Box>
      <Box marginTop={1}>
        <Box flexDirection="column" marginRight={4} flexShrink={0}>
          <Text bold>Countries</Text>
          {countries.map((g) => (
            <Text
              key={g.name}
            >{`${g.name.padEnd(countryWidth)}${String(g.players).padStart(6)} pl ${cash(g.revenue)}`}</Text>
          ))}
        </Box>
        <Box flexDirection="column" marginRight={4} flexShrink={0}>
          <Text bold>Leaderboard</Text>
          {f.leaderboard.data.slice(0, 4).map((r) => (
            <Text key={r.rank}>{`${r.rank}. ${r.playerId} ${cash(r.revenue)}`}</Text>
          ))}
        </Box>
        {/* Last, and cut at the edge on a narrow terminal: installs and revenue before the URL. */}
        <Box flexDirection="column">
          <Text bold wrap="truncate">
            Links: installs, revenue
          </Text>
          {links.length === 0 ? <Text dimColor>no attributed installs</Text> : null}
          {links.map((r) => (
            <Text key={r.group} wrap="truncate">
              {`${String(r.installs).padStart(5)}  ${cash(r.revenue).padStart(revenueWidth)}  ${(r.shortUrl ?? r.group).replace(/^https?:\/\//, '')}`}
            </Text>
          ))}
        </Box>
      </Box>
      <Box marginTop={1} flexDirection="column">
        <Text bold>Events (* custom)</Text>
        {f.events.data.slice(0, 4).map((e) => (
          <Text
            key={`${e.custom ? '*' : ''}${e.eventType}`}
          >{`${e.custom ? '*' : ' '}${truncate(e.eventType, EVENT_TYPE_WIDTH).padEnd(EVENT_TYPE_WIDTH + 1)}${String(e.count).padStart(7)}`}</Text>
        ))}
      </Box>
    </Box>
  )
}

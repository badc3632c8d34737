/**
 * The three lists of a game's Fraud screen: the live feed of fraud events (newest first, the
 * ones that arrived since the feed opened marked), the rules (enable/disable, priority) and the
 * blocklist (add, remove after y). Each write goes through the API; its error is shown under
 * the list it came from.
 */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import type { BlocklistEntry, BlockType, FraudEvent, FraudReview, FraudRule } from '../../contract/fraud.js'
import { ruleNames } from '../../format/cells.js'
import { visible } from '../../format/visible.js'
import { plural } from '../../contract/numbers.js'
import { validationLines } from '../api.js'
import { Confirm, type Confirmation } from '../components/confirm.js'
import { Form } from '../components/form.js'
import { columnWidth, Table, type TableColumn } from '../components/table.js'
import { hasScope, tint, useTui } from '../context.js'
import { useKeys } from '../hooks/use-keys.js'
import { byId, useFollowingCursor, type Cursor } from '../hooks/use-list-keys.js'
import { usePoll } from '../hooks/use-poll.js'

export interface PaneProps {
  game: string
  active: boolean
  width: number
  rows: number
  /** The pane holds the keyboard (a form or a confirmation is open): Esc and ←/→ are its. */
  hold(on: boolean): void
}

const clock = (iso: string) => iso.slice(11, 19)

/** What a write said: its result, or the API's error lines (red). */
interface Outcome {
  lines: string[]
  failed: boolean
}

function OutcomeLines({ outcome }: { outcome: Outcome | null }) {
  const env = useTui()
  if (!outcome) return null
  return (
    <Box flexDirection="column">
      {outcome.lines.map((line, i) => (
        <Text key={i} color={outcome.failed ? tint(env, 'red') : undefined}>
          {line}
        </Text>
      ))}
    </Box>
  )
}

/** Runs a write, then says its result or its error (and reloads the list either way). */
function useWrite(reload: () => void) {
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const run = (label: string, work: () => Promise<string>) => {
    setOutcome({ lines: [`${label}…`], failed: false })
    work()
      .then((done) => setOutcome({ lines: [done], failed: false }))
      .catch((err: unknown) => {
        const [first = '', ...rest] = validationLines(err)
        setOutcome({ lines: [`${label} failed: ${first}`, ...rest], failed: true })
      })
      .finally(reload)
  }
  return { outcome, run }
}

/** A pane: its heading, its rows (or what to say when there are none), then its last write's outcome. */
function PaneBody<T>(props: {
  heading: string
  empty: string
  columns: TableColumn<T>[]
  rows: T[]
  pos: Cursor
  visible: number
  width: number
  outcome: Outcome | null
  children?: ReactNode
}) {
  const env = useTui()
  const { rows, pos } = props
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate">
        {props.heading}
      </Text>
      {rows.length === 0 ? (
        <Text>{props.empty}</Text>
      ) : (
        <Table
          columns={props.columns}
          rows={rows.slice(pos.top, pos.top + props.visible)}
          width={props.width}
          selected={pos.cursor - pos.top}
          color={env.color}
        />
      )}
      {props.children}
      <OutcomeLines outcome={props.outcome} />
    </Box>
  )
}

const EVENTS: TableColumn<FraudEvent & { fresh: boolean }>[] = [
  { header: ' ', width: 1, value: (e) => (e.fresh ? '●' : ' '), colour: () => 'cyan' },
  { header: 'TIME', width: 8, value: (e) => clock(e.receivedAt) },
  { header: 'PLAYER', width: 10, value: (e) => e.playerId },
  { header: 'THREAT', width: 15, value: (e) => e.threatType ?? '-', drop: 1 },
  { header: 'RISK', width: 4, value: (e) => e.riskScore.toFixed(2), align: 'right' },
  {
    header: 'STATUS',
    width: 8,
    value: (e) => e.status,
    colour: (e) => (e.status === 'blocked' ? 'red' : e.status === 'detected' ? 'yellow' : 'gray'),
  },
  { header: 'REVIEW', width: 10, value: (e) => e.review, drop: 2 },
  { header: 'RULES', value: (e) => ruleNames(e) || '-', fit: 'flex' },
]

export function EventFeed({ game, active, width, rows }: PaneProps) {
  const env = useTui()
  // o: the Log rules' records (status logged) instead of the threats.
  const [logged, setLogged] = useState(false)
  const feed = usePoll(
    `fraud events ${game}`,
    () => env.client.fraud.events(game, { limit: 50, ...(logged ? { status: 'logged' as const } : {}) }),
    [env.client, game, logged],
  )
  // The events listed when the feed opened (or switched); any other is new (marked ●).
  const initial = useRef<Set<string> | null>(null)
  if (feed.data && !initial.current) initial.current = new Set(feed.data.data.map((e) => e.id))
  const events = (feed.data?.data ?? []).map((e) => ({ ...e, fresh: !initial.current?.has(e.id) }))
  const fresh = events.filter((e) => e.fresh).length
  const tableRows = Math.max(1, rows - 2)
  const pos = useFollowingCursor(events, byId, tableRows)
  const write = useWrite(feed.reload)
  const canWrite = hasScope(env, 'fraud:write')

  useKeys((input, key) => {
    if (pos.move(input, key)) return
    if (input === 'o') {
      initial.current = null
      return setLogged((l) => !l)
    }
    const event = events[pos.cursor]
    const review: FraudReview | null = input === 'l' ? 'legitimate' : input === 'f' ? 'fraud' : null
    if (!event || !review || !canWrite) return
    write.run(`Reviewing ${event.id}`, async () => {
      const done = await env.client.fraud.review(game, event.id, review)
      return `${done.id} (player ${done.playerId}) reviewed: ${done.review}`
    })
  }, active)

  if (!feed.data) return <Text dimColor>loading…</Text>
  return (
    <PaneBody
      heading={
        `${plural(feed.data.total, logged ? 'logged record' : 'fraud event')}, newest first · ${fresh} new (●)` +
        (canWrite ? ' · l legitimate · f fraud' : '') +
        (logged ? ' · o threats' : ' · o logged')
      }
      empty={logged ? 'No logged records.' : 'No fraud events yet.'}
      columns={EVENTS}
      rows={events}
      pos={pos}
      visible={tableRows}
      width={width}
      outcome={write.outcome}
    />
  )
}

const RULES: TableColumn<FraudRule>[] = [
  { header: 'RULE', value: (r) => r.name, fit: 'flex' },
  { header: 'ACTION', width: 6, value: (r) => r.action },
  {
    header: 'CONDITION',
    value: (r) => `${r.field} ${r.operator} ${JSON.stringify(r.value)}`,
    fit: 'flex',
  },
  { header: 'PRI', width: 4, value: (r) => r.priority, align: 'right' },
  {
    header: 'ON',
    width: 3,
    value: (r) => (r.enabled ? 'yes' : 'no'),
    colour: (r) => (r.enabled ? 'green' : 'gray'),
  },
]

export function RuleList({ game, active, width, rows }: PaneProps) {
  const env = useTui()
  // One page of 100 holds them all: a game has at most 100 rules.
  const poll = usePoll(`fraud rules ${game}`, () => env.client.fraud.rules(game, { limit: 100 }), [
    env.client,
    game,
  ])
  // As the API lists them: the order they run in (priority high first, then creation order).
  const rules = poll.data?.data ?? []
  const tableRows = Math.max(1, rows - 3)
  // The cursor stays on its rule when a new priority moves the rule's row.
  const pos = useFollowingCursor(rules, byId, tableRows)
  const write = useWrite(poll.reload)
  const canWrite = hasScope(env, 'fraud:write')

  useKeys((input, key) => {
    if (pos.move(input, key)) return
    const rule = rules[pos.cursor]
    if (!rule || !canWrite) return
    if (input === ' ' || key.return) {
      const enabled = !rule.enabled
      return write.run(`${enabled ? 'Enabling' : 'Disabling'} ${rule.name}`, async () => {
        const done = await env.client.fraud.updateRule(game, rule.id, { enabled })
        return `${done.name} ${done.enabled ? 'enabled' : 'disabled'}`
      })
    }
    const step = input === '+' ? 1 : input === '-' ? -1 : 0
    if (step === 0) return
    const priority = rule.priority + step
    write.run(`Priority of ${rule.name} to ${priority}`, async () => {
      const done = await env.client.fraud.updateRule(game, rule.id, { priority })
      return `${done.name}: priority ${done.priority}`
    })
  }, active)

  if (!poll.data) return <Text dimColor>loading…</Text>
  return (
    <PaneBody
      heading={
        `${plural(rules.length, 'rule')}, run by priority (high first)` +
        (canWrite ? ' · Space on/off · +/- priority' : '')
      }
      empty="No rules: add one with linkctl fraud rules create"
      columns={RULES}
      rows={rules}
      pos={pos}
      visible={tableRows}
      width={width}
      outcome={write.outcome}
    />
  )
}

const BLOCKED: TableColumn<BlocklistEntry>[] = [
  { header: 'TYPE', width: 6, value: (b) => b.type },
  { header: 'VALUE', width: 15, value: (b) => b.value },
  { header: 'REASON', value: (b) => b.reason, fit: 'flex' },
  { header: 'EXPIRES', width: 10, value: (b) => b.expiresAt.slice(0, 10) },
]

export function Blocklist({ game, active, width, rows, hold }: PaneProps) {
  const env = useTui()
  const poll = usePoll(`fraud blocklist ${game}`, () => env.client.fraud.blocklist(game, { limit: 100 }), [
    env.client,
    game,
  ])
  const entries = poll.data?.data ?? []
  // A value its cell cuts (a device fingerprint: up to 256 characters) is also shown whole under
  // the table, wrapped, to read and copy (as Domains shows its records); the table leaves it the
  // lines the longest such value needs, so the rows do not jump as the cursor moves.
  const room = columnWidth(BLOCKED, entries, width, 1)
  const wholeOf = (e: BlocklistEntry | undefined) =>
    e && [...visible(e.value)].length > room ? `${e.type} ${e.value}` : null
  const linesOf = (text: string | null) =>
    text ? Math.ceil([...visible(text)].length / Math.max(1, width)) : 0
  const reserved = Math.max(0, ...entries.map((e) => linesOf(wholeOf(e))))
  const tableRows = Math.max(1, rows - 3 - reserved)
  const pos = useFollowingCursor(entries, byId, tableRows)
  const whole = wholeOf(entries[pos.cursor])
  const write = useWrite(poll.reload)
  const [adding, setAdding] = useState(false)
  const [confirm, setConfirm] = useState<Confirmation | null>(null)
  const canWrite = hasScope(env, 'fraud:write')
  const holding = adding || confirm !== null
  useLayoutEffect(() => {
    hold(holding)
    return () => hold(false)
  }, [hold, holding])

  useKeys(
    (input, key) => {
      if (pos.move(input, key)) return
      if (!canWrite) return
      if (input === 'a') return setAdding(true)
      const entry = entries[pos.cursor]
      if (entry && input === 'd')
        setConfirm({
          question: `Remove ${entry.type} ${entry.value} from the blocklist? Its events are accepted again.`,
          run: async () =>
            write.run(`Removing ${entry.value}`, async () => {
              await env.client.fraud.unblock(game, entry.id)
              return `${entry.type} ${entry.value} removed from the blocklist`
            }),
        })
    },
    active && !adding && !confirm,
  )

  if (adding)
    return (
      <Form
        title="Block an IP address or a device (30 days)"
        fields={[
          { name: 'type', label: 'type (ip or device)', value: 'ip' },
          { name: 'value', label: 'value' },
          { name: 'reason', label: 'reason' },
        ]}
        active={active}
        cancel={() => setAdding(false)}
        submit={async (v) => {
          const done = await env.client.fraud.block(game, {
            type: v.type?.trim() as BlockType,
            value: v.value?.trim() ?? '',
            ...(v.reason?.trim() ? { reason: v.reason.trim() } : {}),
          })
          setAdding(false)
          write.run(
            `Blocking ${done.value}`,
            async () => `${done.type} ${done.value} blocked until ${done.expiresAt.slice(0, 10)}`,
          )
        }}
      />
    )
  if (!poll.data) return <Text dimColor>loading…</Text>
  return (
    <PaneBody
      heading={`${poll.data.total} blocked` + (canWrite ? ' · a add · d remove' : '')}
      empty="The blocklist is empty."
      columns={BLOCKED}
      rows={entries}
      pos={pos}
      visible={tableRows}
      width={width}
      outcome={write.outcome}
    >
      {whole ? <Text>{whole}</Text> : null}
      {confirm ? <Confirm ask={confirm} active={active} done={() => setConfirm(null)} /> : null}
    </PaneBody>
  )
}

/**
 * Webhooks: a health band per webhook, the selected one's recent deliveries (status, HTTP code,
 * latency), retry a delivery, enable/disable, send a test event.
 */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useState } from 'react'
import { fitHead, relativeTime } from '../../format/cells.js'
import type { Delivery, Webhook } from '../../contract/webhooks.js'
import { troubleOf } from '../api.js'
import { Confirm, type Confirmation } from '../components/confirm.js'
import { Table, type TableColumn } from '../components/table.js'
import { allowed, hasScope, useTui, type ScreenDef, type ScreenProps } from '../context.js'
import { useKeys } from '../hooks/use-keys.js'
import { byId, LIST_KEYS, useFollowingCursor } from '../hooks/use-list-keys.js'
import { usePoll } from '../hooks/use-poll.js'
import { plural } from '../../contract/numbers.js'

/**
 * The health band: what a reader should do about the webhook. Failed deliveries in a row first;
 * then the latest attempts (a failed test included: enabling resets the deliveries' count, so a
 * receiver still down shows by its attempts).
 */
export function health(w: Webhook): { band: string; colour: string } {
  if (w.status === 'suspended') return { band: 'suspended', colour: 'red' }
  if (w.status === 'disabled') return { band: 'disabled', colour: 'gray' }
  if (w.consecutiveFailures >= 3) return { band: `failing ×${w.consecutiveFailures}`, colour: 'red' }
  if (w.consecutiveFailures > 0) return { band: `flaky ×${w.consecutiveFailures}`, colour: 'yellow' }
  if (w.failedAttempts > 0) return { band: `last failed ×${w.failedAttempts}`, colour: 'yellow' }
  return { band: 'healthy', colour: 'green' }
}

/** The event of a delivery, marked when the test action sent it. */
const eventOf = (d: Delivery) => (d.test ? `${d.event} (test)` : d.event)

const HOOKS: TableColumn<Webhook>[] = [
  { header: 'NAME', value: (w) => w.name, fit: 'flex' },
  { header: 'HEALTH', width: 15, value: (w) => health(w).band, colour: (w) => health(w).colour },
  { header: 'URL', value: (w) => w.url, fit: 'flex' },
]

function deliveryColumns(now: number): TableColumn<Delivery>[] {
  return [
    { header: 'EVENT', width: 22, value: eventOf },
    {
      header: 'STATUS',
      width: 8,
      value: (d) => d.status,
      colour: (d) => (d.status === 'failed' ? 'red' : d.status === 'success' ? 'green' : 'yellow'),
    },
    { header: 'CODE', width: 4, value: (d) => d.responseStatusCode ?? '', align: 'right' },
    {
      header: 'LATENCY',
      width: 8,
      value: (d) => (d.durationMs === null ? '' : `${d.durationMs} ms`),
      align: 'right',
    },
    { header: 'WHEN', width: 12, value: (d) => relativeTime(Date.parse(d.createdAt), now) },
    { header: 'ERROR', value: (d) => d.error ?? '', fit: 'flex' },
  ]
}

function describeAttempt(d: Delivery): string {
  const code = d.responseStatusCode === null ? 'no answer' : `HTTP ${d.responseStatusCode}`
  return `${eventOf(d)}: ${d.status}, ${code}${d.durationMs === null ? '' : ` in ${d.durationMs} ms`}${d.error ? ` (${d.error})` : ''}`
}

function Webhooks({ active, width, height }: ScreenProps) {
  const env = useTui()
  const { client } = env
  const hooks = usePoll('webhooks', () => client.webhooks.list({ limit: 100 }), [client])
  const list = hooks.data?.data ?? []
  const hookRows = Math.max(2, Math.min(list.length, Math.floor((height - 6) / 2)))
  const hookPos = useFollowingCursor(list, byId, hookRows)
  const selected = list[hookPos.cursor]
  const deliveries = usePoll(
    `deliveries ${selected?.id ?? ''}`,
    () => (selected ? client.webhooks.deliveries(selected.id, { limit: 20 }) : Promise.resolve(null)),
    [client, selected?.id],
  )
  const rows = deliveries.data?.data ?? []
  const deliveryRows = Math.max(1, height - hookRows - 7)
  const deliveryPos = useFollowingCursor(rows, byId, deliveryRows)
  const [pane, setPane] = useState<'hooks' | 'deliveries'>('hooks')
  const [confirm, setConfirm] = useState<Confirmation | null>(null)
  const [result, setResult] = useState<string | null>(null)
  const canWrite = hasScope(env, 'webhooks:write')

  const run = (label: string, work: () => Promise<string>) => {
    setResult(`${label}…`)
    work()
      .then(setResult)
      .catch((err: unknown) => setResult(`${label} failed: ${troubleOf(err).message}`))
      .finally(() => {
        hooks.reload()
        deliveries.reload()
      })
  }

  useKeys((input, key) => {
    if (confirm) return
    if (key.leftArrow || key.rightArrow || input === 'h' || input === 'l')
      return setPane((p) => (p === 'hooks' ? 'deliveries' : 'hooks'))
    if ((pane === 'hooks' ? hookPos : deliveryPos).move(input, key)) return
    if (!selected) return
    const action = { t: 't (test)', e: 'e (enable/disable)', r: 'r (retry)' }[input]
    if (action && !allowed(env, 'webhooks:write', action)) return
    if (input === 't')
      return run(
        `Sending a test event to ${selected.name}`,
        async () => `Test: ${describeAttempt(await client.webhooks.test(selected.id))}`,
      )
    if (input === 'e') {
      if (selected.status === 'active')
        return setConfirm({
          question: `Disable ${selected.name}? Events are not sent to it until it is enabled again.`,
          run: async () =>
            run(
              `Disabling ${selected.name}`,
              async () => `${(await client.webhooks.disable(selected.id)).name} disabled`,
            ),
        })
      return run(
        `Enabling ${selected.name}`,
        async () => `${(await client.webhooks.enable(selected.id)).name} enabled`,
      )
    }
    const delivery = rows[deliveryPos.cursor]
    if (input === 'r' && pane === 'deliveries' && delivery)
      return run(
        `Retrying ${delivery.event}`,
        async () => `Retry: ${describeAttempt(await client.webhooks.retry(selected.id, delivery.id))}`,
      )
  }, active)

  if (!hooks.data) return <Text dimColor>loading…</Text>
  if (list.length === 0) return <Text>No webhooks yet: add one with linkctl webhooks create</Text>
  const totals = deliveries.data?.totals
  return (
    <Box flexDirection="column">
      <Text
        dimColor
      >{`${plural(hooks.data.total, 'webhook')} · ←/→ switch list${canWrite ? ' · t test · e enable/disable · r retry a delivery' : ''}`}</Text>
      <Table
        columns={HOOKS}
        rows={list.slice(hookPos.top, hookPos.top + hookRows)}
        width={width}
        selected={pane === 'hooks' ? hookPos.cursor - hookPos.top : undefined}
        color={env.color}
      />
      <Box marginTop={1}>
        <Text bold wrap="truncate">
          {fitHead(
            selected ? `Deliveries of ${selected.name}` : '',
            totals
              ? ` · ${totals.success} ok, ${totals.failed} failed, ${totals.pending} pending of ${totals.total}`
              : '',
            width,
          )}
        </Text>
      </Box>
      {rows.length === 0 ? (
        <Text dimColor>{deliveries.data ? 'no deliveries yet' : 'loading…'}</Text>
      ) : (
        <Table
          columns={deliveryColumns(env.clock.now())}
          rows={rows.slice(deliveryPos.top, deliveryPos.top + deliveryRows)}
          width={width}
          selected={pane === 'deliveries' ? deliveryPos.cursor - deliveryPos.top : undefined}
          color={env.color}
        />
      )}
      {confirm ? <Confirm ask={confirm} active={active} done={() => setConfirm(null)} /> : null}
      {result ? <Text>{result}</Text> : null}
    </Box>
  )
}

export const webhooks: ScreenDef = {
  id: 'webhooks',
  title: 'Webhooks',
  scope: 'webhooks:read',
  keys: [
    ...LIST_KEYS,
    { keys: '←/→ or h/l', does: 'between the webhooks and their deliveries' },
    { keys: 't', does: 'send a test event to the webhook (webhooks:write)' },
    { keys: 'e', does: 'enable, or disable after y (webhooks:write)' },
    { keys: 'r', does: 'retry the selected delivery (webhooks:write)' },
  ],
  render: (props) => <Webhooks {...props} />,
}

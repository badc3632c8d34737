/**
 * One SKAN campaign: its report figures, its conversion schema as a table (bit → event, coarse
 * bands and what they decode to); `o` asks the optimizer and shows its proposal beside the
 * current schema (or the API's refusal, such as the 422 of too little history), `A` applies it
 * after y and then shows the applied schema.
 */
import { isDeepStrictEqual } from 'node:util'
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useLayoutEffect, useState } from 'react'
import { fitHead, money, percent } from '../../format/cells.js'
import { plural } from '../../contract/numbers.js'
import type { Game } from '../../contract/games.js'
import type { SkanCampaign } from '../../contract/skan.js'
import type { OptimizeResult, RevenueError } from '../../contract/skan-optimize.js'
import { validationLines } from '../api.js'
import { Confirm, type Confirmation } from '../components/confirm.js'
import { Table, type TableColumn } from '../components/table.js'
import { hasScope, tint, useTui } from '../context.js'
import { useKeys } from '../hooks/use-keys.js'
import { usePoll } from '../hooks/use-poll.js'

type Schema = SkanCampaign['conversionSchema']
const BITS = [1, 2, 4, 8, 16, 32]
const BANDS = ['low', 'medium', 'high'] as const

/** The event(s) of a bit of a schema ('' when none). */
export const eventOfBit = (schema: Schema, bit: number) =>
  Object.entries(schema.events)
    .filter(([, value]) => value === bit)
    .map(([event]) => event)
    .join(', ')

const bandOf = (schema: Schema, band: (typeof BANDS)[number]) =>
  `${schema.coarseValues[band].min}-${schema.coarseValues[band].max}`

function SchemaTables({
  current,
  proposed,
  currency,
  width,
}: {
  current: Schema
  proposed?: Schema
  currency: string
  width: number
}) {
  const env = useTui()
  const decodes = (schema: Schema, band: (typeof BANDS)[number]) => {
    const n = schema.decodedRevenue?.coarse?.[band]
    return n === undefined ? '' : money(n, 2, currency)
  }
  const bits: TableColumn<number>[] = [
    { header: 'BIT', width: 3, value: (bit) => bit, align: 'right' },
    {
      header: proposed ? 'CURRENT' : 'EVENT',
      value: (bit) => eventOfBit(current, bit) || '-',
      fit: 'flex',
    },
  ]
  const bands: TableColumn<(typeof BANDS)[number]>[] = [
    { header: 'COARSE', width: 6, value: (band) => band },
    {
      header: proposed ? 'CURRENT' : 'VALUES',
      width: 7,
      value: (band) => bandOf(current, band),
    },
    { header: 'DECODES TO', width: 14, value: (band) => decodes(current, band) },
  ]
  if (proposed) {
    bits.push({
      header: 'PROPOSED',
      value: (bit) => eventOfBit(proposed, bit) || '-',
      fit: 'flex',
    })
    bands.push(
      { header: 'PROPOSED', width: 8, value: (band) => bandOf(proposed, band) },
      { header: 'DECODES TO', width: 14, value: (band) => decodes(proposed, band) },
    )
  }
  return (
    <Box flexDirection="column">
      <Table columns={bits} rows={BITS} width={width} color={env.color} />
      <Table columns={bands} rows={BANDS} width={width} color={env.color} />
    </Box>
  )
}

const signed = (x: number | null) => (x === null ? 'n/a' : `${x > 0 ? '+' : ''}${percent(x * 100, 1)}`)
const errorText = (e: RevenueError | null, currency: string) =>
  e ? `${money(e.estimatedRevenue, 2, currency)} (${signed(e.relativeError)})` : 'n/a'

/** The optimizer's figures: the history, and the estimate of each schema against its true revenue. */
export function proposalLines(r: OptimizeResult): string[] {
  return [
    `${plural(r.installs, 'install')}, ${plural(r.payers, 'payer')} · true revenue ${money(r.expectedError.revenue, 2, r.currency)}`,
    `estimated revenue: current ${errorText(r.currentError, r.currency)} · proposed ${errorText(r.expectedError, r.currency)}`,
  ]
}

export function CampaignView(props: {
  game: Game
  campaign: SkanCampaign
  active: boolean
  width: number
  hold(on: boolean): void
}) {
  const { game, campaign, active, width, hold } = props
  const env = useTui()
  const poll = usePoll(`skan campaign ${campaign.id}`, () => env.client.skan.campaign(campaign.id), [
    env.client,
    campaign.id,
  ])
  const [proposal, setProposal] = useState<OptimizeResult | null>(null)
  const [lines, setLines] = useState<{ text: string[]; failed: boolean } | null>(null)
  const [confirm, setConfirm] = useState<Confirmation | null>(null)
  const canApply = hasScope(env, 'skan:write')
  useLayoutEffect(() => {
    hold(confirm !== null)
    return () => hold(false)
  }, [hold, confirm])

  const fail = (label: string, err: unknown) => {
    const [first = '', ...rest] = validationLines(err)
    setLines({ text: [`${label}: ${first}`, ...rest], failed: true })
  }

  useKeys((input) => {
    if (input === 'o') {
      setLines({ text: ['Asking the optimizer…'], failed: false })
      env.client.skan
        .optimize(campaign.id)
        .then((r) => {
          setProposal(r)
          setLines({ text: proposalLines(r), failed: false })
        })
        .catch((err: unknown) => fail('No proposal', err))
      return
    }
    if (input !== 'A' || !canApply) return
    if (!proposal)
      return setLines({ text: ['Press o first: the proposal is shown before it is applied.'], failed: false })
    const shown = proposal
    setConfirm({
      question: `Replace the conversion schema of ${campaign.name} with the proposed one?`,
      run: async () => {
        try {
          const applied = await env.client.skan.optimize(campaign.id, { apply: true })
          setProposal(null)
          setLines({
            text: [
              `Applied the proposed schema to ${campaign.name}`,
              // New history between the two requests may change the proposal: say so.
              ...(isDeepStrictEqual(applied.proposed, shown.proposed)
                ? []
                : ['new history arrived meanwhile: the applied schema differs from the one shown']),
            ],
            failed: false,
          })
        } catch (err) {
          fail('Not applied', err)
        } finally {
          poll.reload()
        }
      },
    })
  }, active && !confirm)

  const c = poll.data
  if (!c) return <Text dimColor>loading…</Text>
  const r = c.report
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {fitHead(
          `Campaign ${c.name}`,
          ` (${c.id}) · ${c.adNetworkId} · source ${c.sourceIdentifier ?? '-'}`,
          width,
        )}
      </Text>
      <Text>
        {`${plural(r.postbacks, 'postback')} · ${percent(r.verifiedShare * 100, 1)} verified · ${plural(r.installs, 'install')} · estimated revenue ${money(r.estimatedRevenue, 2, game.reportingCurrency)}`}
      </Text>
      <Text dimColor>
        {`Schema (lock window ${c.conversionSchema.lockWindow} h) · o propose a schema`}
        {canApply ? ' · A apply the proposal' : ''}
        {' · Esc back'}
      </Text>
      <SchemaTables
        current={c.conversionSchema}
        proposed={proposal?.proposed}
        currency={game.reportingCurrency}
        width={width}
      />
      {confirm ? <Confirm ask={confirm} active={active} done={() => setConfirm(null)} /> : null}
      {lines?.text.map((line, i) => (
        <Text key={i} color={lines.failed ? tint(env, 'red') : undefined}>
          {line}
        </Text>
      ))}
    </Box>
  )
}

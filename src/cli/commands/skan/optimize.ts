/**
 * `linkctl skan optimize <campaign> [--apply]`: the conversion schema the daemon proposes from
 * the game's history, side by side with the current one (bits → events, coarse bands, decoded
 * revenue per value) and the expected error; `--apply` replaces the campaign's schema after a
 * confirmation on a terminal (`--yes` skips it).
 */
import { isDeepStrictEqual } from 'node:util'
import type { Command } from 'commander'
import type { OptimizeResult, RevenueError } from '../../../contract/skan-optimize.js'
import { action, jsonOption } from '../../action.js'
import { confirmOrStop } from '../../confirm.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, money, plural, note, percent, printRows, warn } from '../../output.js'

type Schema = OptimizeResult['proposed']
const BITS = [1, 2, 4, 8, 16, 32]
const BANDS = ['low', 'medium', 'high'] as const

/** The event of each bit of a schema ('' when none). */
const eventOfBit = (schema: Schema, bit: number) =>
  Object.entries(schema.events)
    .filter(([, value]) => value === bit)
    .map(([event]) => event)
    .join(', ')

const amount = (n: number | null | undefined, currency: string) =>
  n === null || n === undefined ? '' : money(n, 2, currency)
const range = (r: OptimizeResult['buckets'][number]['revenueRange'], currency: string) =>
  r.max === 0 ? 'none' : `${money(r.min, 2)}${r.max === null ? '+' : ` – <${money(r.max, 2)}`} ${currency}`
const signedPercent = (x: number | null) => (x === null ? 'n/a' : `${x > 0 ? '+' : ''}${percent(x * 100, 1)}`)

/** The human form: four tables (bits, coarse bands, buckets, expected error). */
export async function printProposal(ctx: Ctx, r: OptimizeResult): Promise<void> {
  const { current, proposed, currency } = r
  note(
    ctx,
    `Campaign ${r.campaignId}: ${plural(r.installs, 'install')}, ${plural(r.payers, 'payer')} in the first conversion window (days 0-2)`,
  )
  await printRows(ctx, BITS, [
    { header: 'BIT', value: (bit) => bit },
    { header: 'CURRENT', value: (bit) => eventOfBit(current, bit) },
    { header: 'PROPOSED', value: (bit) => eventOfBit(proposed, bit) },
  ])
  ctx.stdout.write('\n')
  await printRows(ctx, BANDS, [
    { header: 'COARSE', value: (band) => band },
    {
      header: 'CURRENT',
      value: (band) => `${current.coarseValues[band].min}-${current.coarseValues[band].max}`,
    },
    {
      header: 'PROPOSED',
      value: (band) => `${proposed.coarseValues[band].min}-${proposed.coarseValues[band].max}`,
    },
    {
      header: 'CURRENT DECODES TO',
      value: (band) => amount(current.decodedRevenue?.coarse?.[band], currency),
    },
    {
      header: 'PROPOSED DECODES TO',
      value: (band) => amount(proposed.decodedRevenue?.coarse?.[band], currency),
    },
  ])
  ctx.stdout.write('\n')
  await printRows(ctx, r.buckets, [
    { header: 'BUCKET', value: (b) => b.bucket },
    { header: 'VALUES', value: (b) => `${b.values.min}-${b.values.max}` },
    { header: 'WINDOW REVENUE', value: (b) => range(b.revenueRange, currency) },
    { header: 'DECODES TO', value: (b) => amount(b.decodedRevenue, currency) },
    { header: 'PLAYERS', value: (b) => b.players },
    { header: 'SHARE', value: (b) => percent(b.share * 100, 1) },
  ])
  ctx.stdout.write('\n')
  const errors: Array<[string, (e: RevenueError) => string]> = [
    ['true revenue', (e) => amount(e.revenue, currency)],
    ['estimated revenue', (e) => amount(e.estimatedRevenue, currency)],
    ['relative error', (e) => signedPercent(e.relativeError)],
    ['mean absolute error per install', (e) => amount(e.meanAbsoluteError, currency)],
  ]
  await printRows(ctx, errors, [
    { header: 'EXPECTED ERROR', value: ([label]) => label },
    { header: 'CURRENT', value: ([, show]) => (r.currentError ? show(r.currentError) : 'n/a') },
    { header: 'PROPOSED', value: ([, show]) => show(r.expectedError) },
  ])
  if (r.currentErrorReason) note(ctx, `Current schema's error not computable: ${r.currentErrorReason}`)
}

export async function runSkanOptimize(
  o: { campaign: string; apply?: boolean; yes?: boolean },
  ctx: Ctx,
): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const shown = await client.skan.optimize(o.campaign)
  if (!o.apply) return emit(ctx, shown, () => printProposal(ctx, shown))
  if (!ctx.json) await printProposal(ctx, shown)
  await confirmOrStop(ctx, {
    yes: o.yes,
    action: `replace the conversion schema of campaign ${o.campaign}`,
    question: `Replace the conversion schema of campaign ${o.campaign} with the proposed one?`,
  })
  const applied = await client.skan.optimize(o.campaign, { apply: true })
  // New history between the two requests may change the proposal: say so rather than hide it.
  if (!isDeepStrictEqual(applied.proposed, shown.proposed))
    warn(ctx, 'new history arrived meanwhile: the applied schema differs from the one shown (see --json)')
  await emit(ctx, applied, () => note(ctx, `Applied the proposed schema to campaign ${applied.campaignId}`))
}

export function register(skan: Command): void {
  jsonOption(
    skan
      .command('optimize')
      .description("propose a conversion schema from the game's history (current vs proposed)")
      .argument('<campaign>', 'campaign id (skan_…)')
      .option('--apply', "replace the campaign's schema with the proposal (asks on a terminal)")
      .option('-y, --yes', 'do not ask for confirmation with --apply (required without a terminal)'),
  ).action(
    action<{ apply?: boolean; yes?: boolean }>(([campaign], o, ctx) =>
      runSkanOptimize({ ...o, campaign: campaign ?? '' }, ctx),
    ),
  )
}

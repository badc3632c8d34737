/**
 * `POST /api/v1/skan/campaigns/:campaignId/optimize`: the proposal of a
 * conversion schema from the game's history. Money is in the game's reporting currency.
 */
import Type, { type Static } from 'typebox'
import { Nullable } from './common.js'
import { ConversionSchemaOut } from './skan.js'

export const OptimizeQuery = Type.Object(
  {
    apply: Type.Optional(
      Type.Boolean({
        default: false,
        description: "true: replace the campaign's schema with the proposal (needs skan:write)",
      }),
    ),
  },
  { additionalProperties: false },
)

const Band = Type.Object({ min: Type.Integer(), max: Type.Integer() })
const RevenueRange = Type.Object(
  {
    min: Type.Number({ description: 'inclusive' }),
    max: Nullable(Type.Number({ description: 'exclusive; null: no upper bound' })),
  },
  { description: 'Window revenue of the players sending these values; {0, 0}: no revenue' },
)

export const RevenueError = Type.Object({
  revenue: Type.Number({ description: "The history's true revenue in the first window" }),
  estimatedRevenue: Type.Number({ description: 'The sum of the decoded values the players would send' }),
  relativeError: Nullable(
    Type.Number({ description: '(estimated − true) / true; null when the history has no revenue' }),
  ),
  meanAbsoluteError: Type.Number({ description: 'Mean over installs of |decoded − true| per player' }),
})
export type RevenueError = Static<typeof RevenueError>

export const OptimizeResult = Type.Object(
  {
    campaignId: Type.String(),
    currency: Type.String({ description: "The game's reporting currency" }),
    applied: Type.Boolean(),
    installs: Type.Integer({ description: 'Players whose first conversion window (days 0-2) is over' }),
    payers: Type.Integer(),
    current: ConversionSchemaOut,
    proposed: ConversionSchemaOut,
    keyEvents: Type.Array(
      Type.Object({
        event: Type.String(),
        value: Type.Integer(),
        players: Type.Integer(),
        share: Type.Number(),
        association: Type.Number({ description: 'Point-biserial correlation with window revenue' }),
      }),
    ),
    buckets: Type.Array(
      Type.Object({
        bucket: Type.Integer(),
        values: Band,
        revenueRange: RevenueRange,
        decodedRevenue: Type.Number(),
        players: Type.Integer(),
        share: Type.Number(),
      }),
    ),
    values: Type.Array(
      Type.Object({
        value: Type.Integer(),
        bucket: Type.Integer(),
        events: Type.Array(Type.String()),
        revenueRange: RevenueRange,
        decodedRevenue: Type.Number(),
        players: Type.Integer(),
        share: Type.Number(),
      }),
    ),
    expectedError: RevenueError,
    currentError: Nullable(RevenueError),
    currentErrorReason: Nullable(Type.String()),
  },
  { $id: 'SkanOptimizeResult', title: 'SkanOptimizeResult' },
)
export type OptimizeResult = Static<typeof OptimizeResult>

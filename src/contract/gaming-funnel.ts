/**
 * Funnels (contract "Funnels"): ordered steps of a game's raw events, each player counted at the
 * furthest step reached within the conversion window of their first step 1 in the range.
 */
import Type, { type Static } from 'typebox'
import { Nullable, StringEnum } from './common.js'
import { FUNNEL_LIMITS, FUNNEL_WINDOWS, PLAYER_GROUPS } from './limits.js'
import { DATE_PATTERN } from './text.js'
import { NONE_GROUP } from './gaming-revenue.js'

export {
  FUNNEL_LIMITS,
  FUNNEL_WINDOWS,
  PLAYER_GROUPS,
  type FunnelWindow,
  type PlayerGroup,
} from './limits.js'

const DateParam = Type.String({
  pattern: DATE_PATTERN,
  description: 'ISO 8601 date or date-time (UTC); the whole UTC day is included',
})

export const FunnelQuery = Type.Object({
  gameId: Type.String({ minLength: 1, maxLength: 64, description: 'The game (its slug)' }),
  steps: Type.String({
    minLength: 1,
    maxLength: FUNNEL_LIMITS.stepsTextMax,
    description: `${FUNNEL_LIMITS.stepsMin}-${FUNNEL_LIMITS.stepsMax} comma-separated steps, each an event type, optionally with one condition on a top-level data field: type:field=value (level_complete:level=3; a number matches its text, 3 matches level=3)`,
    examples: ['app_install,level_start,level_complete:level=3,purchase'],
  }),
  window: Type.Optional(
    StringEnum(Object.keys(FUNNEL_WINDOWS) as Array<keyof typeof FUNNEL_WINDOWS>, {
      default: '1d',
      description: "From a player's first step 1 in the range to the last step",
    }),
  ),
  startDate: Type.Optional(DateParam),
  endDate: Type.Optional(DateParam),
  groupBy: Type.Optional(
    StringEnum(PLAYER_GROUPS, {
      description: `The player's platform or country (profile) or install attribution (source, campaign, link); ${NONE_GROUP} for players without one`,
    }),
  ),
})
export type FunnelQuery = Static<typeof FunnelQuery>

const Ratio = Nullable(
  Type.Number({ minimum: 0, maximum: 1, description: '0-1, 4 decimals; null when the divisor is 0' }),
)

export const FunnelStep = Type.Object({
  step: Type.Integer({ minimum: 1, description: 'The position of the step, from 1' }),
  eventType: Type.String(),
  condition: Nullable(
    Type.String({ description: 'field=value, as given; null without one', examples: ['level=3'] }),
  ),
  players: Type.Integer({ description: 'Players who reached this step' }),
  conversion: Ratio,
  stepConversion: Ratio,
  medianSecondsFromPrevious: Nullable(
    Type.Number({
      description:
        'Median seconds from the previous step (3 decimals); null on step 1 and when no player reached it',
    }),
  ),
})
export type FunnelStep = Static<typeof FunnelStep>

export const Funnel = Type.Object({
  data: Type.Array(FunnelStep),
  groups: Type.Optional(
    Type.Array(
      Type.Object({
        group: Type.String({ description: `The group's value; ${NONE_GROUP} for players without one` }),
        steps: Type.Array(FunnelStep),
      }),
      { description: 'With groupBy: one funnel per group, most players at step 1 first' },
    ),
  ),
  range: Type.Object({ startDate: Type.String(), endDate: Type.String() }),
})
export type Funnel = Static<typeof Funnel>

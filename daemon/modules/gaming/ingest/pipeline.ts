/**
 * The stages every accepted event passes before it is stored. A stage judges each event:
 * `accept`, `flag` (stored, marked for review, counted in `flagged`) or `block` (not stored,
 * counted in `blocked`). The first `block` wins; any `flag` marks the event. Judging is
 * synchronous so that a batch is judged without yielding. A stage that keeps records of what it
 * found (fraud events) writes them in `record`, inside the batch's unit of work: they commit
 * with the batch's events, or not at all.
 */
import type { UnitOfWork } from '../../../db/unit-of-work.js'
import type { GameRecord } from '../games/index.js'
import type { NormalizedEvent } from './validate.js'

export type Verdict = 'accept' | 'flag' | 'block'

export interface StageContext {
  game: GameRecord
  /** Client IP of the request. */
  ip: string
  userAgent: string | null
  /** Unix ms when the batch arrived. */
  receivedAt: number
  batchId: string
  /** Whether the request carried a valid HMAC signature. */
  signed: boolean
}

export interface StageResult {
  verdict: Verdict
  /** Why (rule names): the per-event error of a blocked event. */
  reasons?: string[]
}

export interface Stage {
  judge(event: NormalizedEvent, ctx: StageContext): Verdict | StageResult
  /**
   * Writes what the stage found while judging the batch of `ctx`, inside the batch's unit of
   * work. Not called when the batch is a repeat of a stored one; called again, with the same
   * findings, when the unit runs again (its first transaction rolled back).
   */
  record?(ctx: StageContext, unit: UnitOfWork): Promise<void>
  /** The batch of `ctx` is done (stored, or its transaction failed): drop what was found. */
  discard?(ctx: StageContext): void
}

export interface Judged {
  event: NormalizedEvent
  verdict: Verdict
  reasons: readonly string[]
}

/** The reasons of an event no stage gave one for (shared: most events). */
const NO_REASONS: readonly string[] = Object.freeze([])

/** The stages in order: registration, judging an event, and the records of a batch. */
export interface Pipeline {
  /** Adds a stage at the end (fraud detection registers itself here). */
  use(stage: Stage): void
  /** Runs every stage on an event: the first `block` wins, any `flag` marks it. */
  judge(event: NormalizedEvent, ctx: StageContext): Judged
  /** Every stage's records of the batch, inside its unit of work. */
  record(ctx: StageContext, unit: UnitOfWork): Promise<void>
  /** The batch is done: every stage drops what it found. */
  discard(ctx: StageContext): void
}

export function createPipeline(initial: Stage[] = []): Pipeline {
  const stages: Stage[] = [...initial]
  return {
    use(stage: Stage): void {
      stages.push(stage)
    },
    judge(event: NormalizedEvent, ctx: StageContext): Judged {
      let verdict: Verdict = 'accept'
      let reasons: string[] | undefined
      for (const stage of stages) {
        const r = stage.judge(event, ctx)
        const v = typeof r === 'string' ? r : r.verdict
        if (typeof r !== 'string' && r.reasons?.length) (reasons ??= []).push(...r.reasons)
        if (v === 'block') return { event, verdict: 'block', reasons: reasons ?? NO_REASONS }
        if (v === 'flag') verdict = 'flag'
      }
      return { event, verdict, reasons: reasons ?? NO_REASONS }
    },
    async record(ctx: StageContext, unit: UnitOfWork): Promise<void> {
      for (const stage of stages) await stage.record?.(ctx, unit)
    },
    discard(ctx: StageContext): void {
      for (const stage of stages) stage.discard?.(ctx)
    },
  }
}

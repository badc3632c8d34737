/**
 * The stages every accepted event passes before it is stored. Fraud detection plugs in here
 * (issue: fraud): a stage returns `accept`, `flag` (stored, marked for review, counted in
 * `flagged`) or `block` (not stored, counted in `blocked`). The first `block` wins; any `flag`
 * marks the event. Stages are synchronous so that a batch is judged without yielding.
 */
import type { GameRecord } from '../games/service.js'
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
  /** Why (rule names), for the fraud records of the fraud issue. */
  reasons?: string[]
}

export type Stage = (event: NormalizedEvent, ctx: StageContext) => Verdict | StageResult

/** Today's only stage: every event passes. */
export const passThrough: Stage = () => 'accept'

export interface Judged {
  event: NormalizedEvent
  verdict: Verdict
  reasons: string[]
}

export function createPipeline(initial: Stage[] = [passThrough]) {
  const stages: Stage[] = [...initial]
  return {
    /** Adds a stage at the end (fraud detection registers itself here). */
    use(stage: Stage): void {
      stages.push(stage)
    },
    judge(event: NormalizedEvent, ctx: StageContext): Judged {
      let verdict: Verdict = 'accept'
      const reasons: string[] = []
      for (const stage of stages) {
        const r = stage(event, ctx)
        const v = typeof r === 'string' ? r : r.verdict
        if (typeof r !== 'string' && r.reasons) reasons.push(...r.reasons)
        if (v === 'block') return { event, verdict: 'block', reasons }
        if (v === 'flag') verdict = 'flag'
      }
      return { event, verdict, reasons }
    },
  }
}
export type Pipeline = ReturnType<typeof createPipeline>

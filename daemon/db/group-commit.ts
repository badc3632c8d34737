/**
 * Group commit (why and what it measured: docs/decisions/group-commit.md): units of work that
 * arrive while a group is written are written together in one transaction, each stored whole or
 * not at all, and settled once the group is durable. Deferred counter adds are merged and flushed
 * once, last; a unit that throws sends the others through again, each in a savepoint. This file is
 * the queue and the groups; the engine's transactions and durability: sqlite-group-engine.ts.
 */
import type { Turn } from '../turns.js'

/** The longest a group keeps the event loop before it lets other work run (ms). */
const YIELD_AFTER_MS = 1

/** Lets the I/O that arrived meanwhile run: the next turn of the event loop. */
const nextTurn = (): Promise<void> => new Promise<void>((r) => setImmediate(r))

export interface GroupLimits {
  /** Most events in one group (a unit's weight counts as it arrives; one unit may exceed it). */
  maxEvents: number
  /** Most bytes in one group (the same rule). */
  maxBytes: number
}

/** What one group was: for the metrics. */
export interface GroupReport {
  units: number
  events: number
  failed: number
  /** ms from BEGIN to COMMIT (the work and the commit, on the event loop). */
  writeMs: number
  /** ms from COMMIT until the group was durable (SQLite: the WAL sync, off the event loop). */
  syncMs: number
}

export interface UnitWeight {
  events: number
  bytes: number
}

/** An open transaction of a group, as the committer drives it. */
export interface GroupTransaction<U> {
  /** What the units' statements run on (the stores' unit of work). */
  readonly unit: U
  savepoint(): Promise<void>
  release(): Promise<void>
  rollbackTo(): Promise<void>
  /** Whether the transaction is still open (SQLite ends it itself on an I/O error, a full disk). */
  open(): boolean
}

/** An engine's transactions and durability for a group committer. */
export interface GroupEngine<U> {
  /** Runs `fn` in a new transaction and commits it; when `fn` throws, rolls back and rethrows. */
  transaction<R>(fn: (tx: GroupTransaction<U>) => Promise<R>): Promise<R>
  /** Resolves once every transaction committed so far is durable. */
  durable(): Promise<void>
  close(): Promise<void>
}

export interface GroupCommitOptions<U, D> {
  limits: GroupLimits
  /** Each group once durable (metrics). */
  onGroup?: (report: GroupReport) => void
  /** Writes what the group's stored units deferred, last, in the group's transaction. */
  flush?: (unit: U, deferred: D[]) => Promise<void>
  /**
   * Waits for the group's next slice of the event loop (default: the next turn); the turns that
   * other CPU-heavy work takes (daemon/turns.ts), so that both share one slice per turn. `first`:
   * a group being written goes ahead of the work waiting (its batches are older and wait for it).
   */
  yieldTo?: Turn
}

export interface GroupCommitter<U, D = never> {
  /**
   * Runs `work` inside the next group: resolves with its result once the group is durable, or
   * rejects with its error, nothing of it stored (the group's other units unaffected). `work` may
   * run more than once (its group rolled back because of another unit): it must write the same
   * things on every run. `defer` hands the group what is written last (see `flush`).
   */
  run<T>(work: (unit: U, defer: (d: D) => void) => Promise<T>, weight: UnitWeight): Promise<T>
  /** Events of the units waiting for a group (not yet being written). */
  readonly waitingEvents: number
  /** Resolves once every transaction committed so far is durable. */
  durable(): Promise<void>
  /** Resolves once every unit handed in so far is settled. */
  idle(): Promise<void>
  /** Waits for the units handed in, then lets go of what the engine holds (the WAL file). */
  close(): Promise<void>
}

interface Unit<U, D> {
  work: (unit: U, defer: (d: D) => void) => Promise<unknown>
  weight: UnitWeight
  resolve(value: unknown): void
  reject(err: unknown): void
  /** To be written in a careful group (savepoints): a unit of a group it was in threw. */
  careful: boolean
  /** Careful groups of it whose transaction was lost anyway (it is not written a third time). */
  lost: number
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

/** Thrown inside a group's transaction to roll it back without failing the group's units. */
class RollBack extends Error {
  constructor(readonly outcomes: Array<Outcome | undefined>) {
    super('group rolled back')
  }
}

export function createGroupCommitter<U, D = never>(
  engine: GroupEngine<U>,
  options: GroupCommitOptions<U, D>,
): GroupCommitter<U, D> {
  const { limits, onGroup = () => {}, flush, yieldTo = nextTurn } = options
  const queue: Array<Unit<U, D>> = []
  let waitingEvents = 0
  let writing = false
  let unsettled = 0
  let idleWaiters: Array<() => void> = []

  /** The units of the next group, in arrival order, within the limits (at least one). */
  function take(): Array<Unit<U, D>> {
    const group: Array<Unit<U, D>> = []
    let events = 0
    let bytes = 0
    while (queue.length) {
      const next = queue[0]!
      if (
        group.length &&
        (events + next.weight.events > limits.maxEvents || bytes + next.weight.bytes > limits.maxBytes)
      )
        break
      queue.shift()
      waitingEvents -= next.weight.events
      events += next.weight.events
      bytes += next.weight.bytes
      group.push(next)
    }
    return group
  }

  /** Writes one group and commits it: each unit's outcome (undefined: to be written again). */
  async function write(
    group: Array<Unit<U, D>>,
  ): Promise<{ outcomes: Array<Outcome | undefined>; committed: boolean }> {
    const careful = group.some((u) => u.careful)
    try {
      const outcomes = await engine.transaction(async (tx) => {
        const outcomes: Array<Outcome | undefined> = group.map(() => undefined)
        const deferred: D[] = []
        let ran = performance.now()
        for (const [i, unit] of group.entries()) {
          // A long group lets the event loop answer others (redirects, reads from caches)
          // between its units; nothing else joins its transaction meanwhile.
          if (performance.now() - ran > YIELD_AFTER_MS) {
            await yieldTo(true)
            ran = performance.now()
          }
          const own: D[] = []
          if (careful) await tx.savepoint()
          try {
            outcomes[i] = { ok: true, value: await unit.work(tx.unit, (d) => own.push(d)) }
            if (careful) await tx.release()
            deferred.push(...own)
          } catch (error) {
            outcomes[i] = { ok: false, error }
            if (careful && tx.open()) {
              await tx.rollbackTo()
              await tx.release()
              continue
            }
            // Without a savepoint, or the transaction ended under it: nothing of the group stays.
            throw new RollBack(outcomes.map((o, j) => (j === i ? o : undefined)))
          }
        }
        // The counters and the COMMIT run in one piece: they start a slice of their own.
        if (performance.now() - ran > YIELD_AFTER_MS) await yieldTo(true)
        if (flush && deferred.length) await flush(tx.unit, deferred)
        return outcomes
      })
      return { outcomes, committed: true }
    } catch (err) {
      if (err instanceof RollBack) return { outcomes: err.outcomes, committed: false }
      throw err
    }
  }

  function idle(): Promise<void> {
    if (unsettled === 0) return Promise.resolve()
    return new Promise((r) => idleWaiters.push(r))
  }

  function settle(unit: Unit<U, D>, outcome: Outcome): void {
    if (outcome.ok) unit.resolve(outcome.value)
    else unit.reject(outcome.error)
    if (--unsettled === 0) {
      const waiters = idleWaiters
      idleWaiters = []
      for (const w of waiters) w()
    }
  }

  /** Puts units back at the head of the queue, in their order, to be written carefully. */
  function again(units: Array<Unit<U, D>>): void {
    for (const unit of [...units].reverse()) {
      unit.careful = true
      queue.unshift(unit)
      waitingEvents += unit.weight.events
    }
  }

  async function writer(): Promise<void> {
    try {
      while (queue.length) {
        const group = take()
        const t0 = performance.now()
        const careful = group.some((u) => u.careful)
        let result: { outcomes: Array<Outcome | undefined>; committed: boolean }
        try {
          result = await write(group)
        } catch (error) {
          // BEGIN, the deferred writes or COMMIT failed: nothing of the group is stored.
          for (const unit of group) settle(unit, { ok: false, error })
          continue
        }
        const written = performance.now()
        const back: Array<Unit<U, D>> = []
        const done: Array<[Unit<U, D>, Outcome]> = []
        group.forEach((unit, i) => {
          const outcome = result.outcomes[i]
          if (outcome) done.push([unit, outcome])
          else if (careful && ++unit.lost >= 2)
            done.push([unit, { ok: false, error: new Error('the transaction was lost twice') }])
          else back.push(unit)
        })
        again(back)
        if (!result.committed) {
          // Rolled back: the failures are answered now, the other units come again.
          for (const [unit, outcome] of done) settle(unit, outcome)
          continue
        }
        // The next group is written while this one becomes durable; its units are settled after.
        const report = { units: done.length, events: 0, failed: 0, writeMs: written - t0, syncMs: 0 }
        for (const [unit, o] of done) {
          report.events += unit.weight.events
          if (!o.ok) report.failed++
        }
        engine.durable().then(
          () => {
            report.syncMs = performance.now() - written
            for (const [unit, outcome] of done) settle(unit, outcome)
            try {
              onGroup(report)
            } catch {
              // the metrics never fail a group
            }
          },
          (error: unknown) => {
            // Not known to be durable: no unit of the group may be answered as stored.
            for (const [unit, outcome] of done) settle(unit, outcome.ok ? { ok: false, error } : outcome)
          },
        )
        // Let requests that arrived meanwhile be parsed and join the next group.
        await yieldTo()
      }
    } finally {
      writing = false
    }
  }

  return {
    run<T>(work: (unit: U, defer: (d: D) => void) => Promise<T>, weight: UnitWeight): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({
          work,
          weight,
          resolve: resolve as (v: unknown) => void,
          reject,
          careful: false,
          lost: 0,
        })
        waitingEvents += weight.events
        unsettled++
        if (writing) return
        // Units handed in during this turn of the event loop join the first group.
        writing = true
        setImmediate(() => void writer())
      })
    },
    get waitingEvents() {
      return waitingEvents
    },
    durable: () => engine.durable(),
    idle,
    async close(): Promise<void> {
      await idle()
      await engine.close()
    },
  }
}

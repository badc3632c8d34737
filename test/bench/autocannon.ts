import { createRequire } from 'node:module'

/** The part of autocannon's programmatic API the benchmarks use (the package ships no types). */
export interface Histogram {
  average: number
  p50: number
  p99: number
  total: number
}
export interface AutocannonResult {
  requests: Histogram & { sent: number }
  latency: Histogram
  errors: number
  timeouts: number
  non2xx: number
  statusCodeStats: Record<string, { count: number }>
}
export interface AutocannonOptions {
  url: string
  connections: number
  duration: number
  headers?: Record<string, string>
}

const require = createRequire(import.meta.url)
const run = require('autocannon') as (opts: AutocannonOptions) => Promise<AutocannonResult>

export function autocannon(opts: AutocannonOptions): Promise<AutocannonResult> {
  return run(opts)
}

/** Responses with the given status. */
export function countOf(r: AutocannonResult, status: number): number {
  return Number(r.statusCodeStats[String(status)]?.count ?? 0)
}

/** Figures as the API returns them: money stored in micro-units, decimals rounded; a day in ms. */

/** Micro-units to an amount of the currency (1_500_000 → 1.5). */
export const money = (micros: number) => micros / 1_000_000

/** An amount of the currency to whole micro-units (1.5 → 1_500_000), as money is stored. */
export const toMicros = (amount: number) => Math.round(amount * 1_000_000)

/** Milliseconds in a (UTC) day. */
export const DAY_MS = 86_400_000

/** `n` rounded to `digits` decimals (a number, so JSON and piped output stay numeric). */
export function round(n: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

/** `1 click`, `2 clicks`: a count and its noun, plural unless the count is 1 (`nouns` when irregular). */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : nouns}`
}

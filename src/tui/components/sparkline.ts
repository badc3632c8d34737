/** A row of unicode blocks, one per value, scaled to the largest (all zero: the lowest block). */
const BLOCKS = '▁▂▃▄▅▆▇█'

export function sparkline(values: readonly number[], width?: number): string {
  const shown = width !== undefined && values.length > width ? values.slice(values.length - width) : values
  const max = Math.max(0, ...shown)
  return shown
    .map((v) => (max === 0 || v <= 0 ? BLOCKS[0] : BLOCKS[Math.min(7, Math.ceil((v / max) * 7))]))
    .join('')
}

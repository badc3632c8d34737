/** How long the daemon has been up, as `linkctl status` and the TUI's Home say it: `3d 4h`, `2h 5m`, `5m 3s`, `42s`. */
export function uptime(seconds: number): string {
  const s = Math.floor(seconds)
  const [d, h, m] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60)]
  return d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : m > 0 ? `${m}m ${s % 60}s` : `${s}s`
}

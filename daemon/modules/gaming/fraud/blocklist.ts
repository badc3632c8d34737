/**
 * The blocklist as the pipeline reads it: per game, the listed IPs and device fingerprints with
 * their expiry, in memory (no query per event), rebuilt from the store on every change.
 */
import { parseAddress } from '../../../addresses.js'
import { AppError } from '../../../http/errors.js'
import type { BlockType } from '../../../../src/contract/fraud.js'
import type { BlockRecord } from './store.js'

/** The canonical form of an IP literal (IPv4-mapped IPv6 is the IPv4), undefined when not one. */
export function normalizeIp(text: string): string | undefined {
  return parseAddress(text.trim())?.toString()
}

const DEVICE_RE = /^[\x21-\x7e]+$/

/** The stored value of an entry: a normalized IP, or the fingerprint as given; 400 naming `value`. */
const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
const DOTTED_QUAD = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`)

export function entryValue(type: BlockType, value: string): string {
  if (type === 'ip') {
    // IPv4 only as four decimal parts: `1.2.3` or `0x7f.1` parse (as 1.2.0.3, 127.0.0.1), but
    // nobody listing an address means them.
    const ip = value.includes(':') || DOTTED_QUAD.test(value.trim()) ? normalizeIp(value) : undefined
    if (!ip)
      throw new AppError('ValidationError', `value: ${value} is not an IPv4 or IPv6 address`, [
        { field: 'value', message: 'must be an IPv4 or IPv6 address' },
      ])
    return ip
  }
  const device = value.trim()
  if (!DEVICE_RE.test(device))
    throw new AppError('ValidationError', 'value: a device fingerprint is printable ASCII without spaces', [
      { field: 'value', message: 'must be printable ASCII without spaces' },
    ])
  return device
}

interface GameBlocks {
  ips: Map<string, number>
  devices: Map<string, number>
}

export function createBlocklistIndex() {
  let byGame = new Map<string, GameBlocks>()
  let lastIp = ''
  let lastNormalized: string | undefined
  /** The request IP normalized, memoized (a batch is one IP). */
  const normalized = (ip: string) => {
    if (ip !== lastIp) {
      lastIp = ip
      lastNormalized = normalizeIp(ip)
    }
    return lastNormalized
  }
  return {
    /** Replaces the whole index (entries as the store has them). */
    load(entries: readonly BlockRecord[]): void {
      const next = new Map<string, GameBlocks>()
      for (const e of entries) {
        let g = next.get(e.gameId)
        if (!g) next.set(e.gameId, (g = { ips: new Map(), devices: new Map() }))
        ;(e.type === 'ip' ? g.ips : g.devices).set(e.value, e.expiresAt)
      }
      byGame = next
    },
    /** What listed entry an event matches at `now` (`ip` or `device`), undefined when none. */
    match(gameId: string, ip: string, device: string | null, now: number): BlockType | undefined {
      const g = byGame.get(gameId)
      if (!g) return undefined
      const addr = g.ips.size ? normalized(ip) : undefined
      const ipUntil = addr === undefined ? undefined : g.ips.get(addr)
      if (ipUntil !== undefined && ipUntil > now) return 'ip'
      const deviceUntil = device === null ? undefined : g.devices.get(device)
      if (deviceUntil !== undefined && deviceUntil > now) return 'device'
      return undefined
    },
  }
}
export type BlocklistIndex = ReturnType<typeof createBlocklistIndex>

/**
 * Link passwords at rest: Node's scrypt with a random 16-byte salt, the parameters stored in the
 * string (`scrypt$N$r$p$salt$hash`, base64url) so they can be raised later without breaking old
 * hashes; verification compares in constant time. The try limit and the rules:
 * docs/reference/links.md (Link options).
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'

const N = 16_384
const R = 8
const P = 1
const KEY_LENGTH = 32
const SALT_BYTES = 16
/** Stored parameters beyond these are refused (a tampered row must not pin a core for minutes). */
const MAX_N = 1 << 20

function scrypt(password: string, salt: Buffer, o: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: o.N, r: o.r, p: o.p, maxmem: 256 * o.N * o.r + 1024 * 1024 }
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await scrypt(password, salt, { N, r: R, p: P })
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

/** Whether `password` matches a stored hash; false for a malformed or unknown format. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  if (![n, r, p].every(Number.isSafeInteger) || n < 2 || n > MAX_N || r < 1 || r > 32 || p < 1 || p > 16)
    return false
  const salt = Buffer.from(parts[4]!, 'base64url')
  const want = Buffer.from(parts[5]!, 'base64url')
  if (want.length !== KEY_LENGTH) return false
  const got = await scrypt(password, salt, { N: n, r, p })
  return timingSafeEqual(got, want)
}

import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { customAlphabet } from 'nanoid'
import { createPrivateDir } from './db/files.js'

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'
const idPart = customAlphabet(ID_ALPHABET, 20)
/** 32 characters of [A-Za-z0-9]: ~190 bits. */
export const randomToken = customAlphabet(ALNUM, 32)

/** A key for one purpose (`linkd:<purpose>:v1`) derived from the master key by HMAC-SHA256. */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  return createHmac('sha256', masterKey).update(`linkd:${purpose}:v1`).digest()
}

/**
 * The master key's fingerprint, stored to tell another key from it: HMAC-SHA256 of a fixed label
 * under the key (hex). It reveals nothing of the key, nor of the keys derived for other purposes.
 */
export function masterKeyFingerprint(masterKey: Buffer): string {
  return deriveKey(masterKey, 'fingerprint').toString('hex')
}

/**
 * A token in randomToken's format derived from `message` by HMAC-SHA256 under `key`: the same
 * message always gives the same token, and without the key nobody can compute it.
 */
export function keyedToken(key: Buffer, message: string): string {
  let n = BigInt(`0x${createHmac('sha256', key).update(message).digest('hex')}`)
  let out = ''
  for (let i = 0; i < 32; i++) {
    out += ALNUM[Number(n % 62n)]
    n /= 62n
  }
  return out
}

/** Opaque, prefixed resource id, e.g. `key_3n0...`. */
export function newId(prefix: string): string {
  return `${prefix}_${idPart()}`
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex')
}

/** Constant-time equality of two strings (false for different lengths without leaking where). */
export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a)
  const bb = Buffer.from(b)
  if (ba.length !== bb.length) {
    timingSafeEqual(ba, ba)
    return false
  }
  return timingSafeEqual(ba, bb)
}

/** AES-256-GCM encryption of secrets at rest with the master key. Format `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export interface SecretBox {
  encrypt(plaintext: string): string
  decrypt(sealed: string): string
}

export function createSecretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length !== 32) throw new Error('master key must be 32 bytes')
  return {
    encrypt(plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', masterKey, iv)
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return ['v1', iv, cipher.getAuthTag(), ct]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.')
    },
    decrypt(sealed) {
      const [v, iv, tag, ct] = sealed.split('.')
      if (v !== 'v1' || iv === undefined || tag === undefined || ct === undefined)
        throw new Error('malformed sealed secret')
      const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8')
    },
  }
}

/** Parses a master key given as 64 hex characters or base64 of 32 bytes. */
export function parseMasterKey(text: string): Buffer {
  const t = text.trim()
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64')
  if (key.length !== 32) throw new Error('LINKD_SECRET_KEY must be 64 hex characters or base64 of 32 bytes')
  return key
}

/**
 * The master key: LINKD_SECRET_KEY when set, else DATA_DIR/secret.key, generated (mode 0600) on
 * first start. Returns whether it was generated so the caller can say so once.
 */
export function loadOrCreateMasterKey(
  secretKey: string | undefined,
  dataDir: string,
): { key: Buffer; generated: boolean } {
  if (secretKey) return { key: parseMasterKey(secretKey), generated: false }
  const file = join(dataDir, 'secret.key')
  if (existsSync(file)) {
    try {
      return { key: parseMasterKey(readFileSync(file, 'utf8')), generated: false }
    } catch {
      throw new Error(
        `${file} is not a master key (64 hex characters or base64 of 32 bytes): restore it from its backup, or set LINKD_SECRET_KEY`,
      )
    }
  }
  createPrivateDir(dataDir)
  const key = randomBytes(32)
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' })
  chmodSync(file, 0o600)
  return { key, generated: true }
}

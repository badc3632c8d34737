import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createSecretBox,
  loadOrCreateMasterKey,
  newId,
  parseMasterKey,
  randomToken,
  safeEqual,
  sha256Hex,
} from '../../daemon/crypto.js'

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32)
  const box = createSecretBox(key)

  it('round-trips, including empty and non-ASCII text', () => {
    for (const text of ['whsec_abc123', '', 'ünïcødé ✓ 🔑', 'x'.repeat(10_000)])
      expect(box.decrypt(box.encrypt(text))).toBe(text)
  })

  it('uses a fresh IV each time and a versioned format', () => {
    const a = box.encrypt('same')
    const b = box.encrypt('same')
    expect(a).not.toBe(b)
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]*$/)
    expect(a).not.toContain('same')
  })

  it('refuses tampered ciphertext, tag or IV', () => {
    const sealed = box.encrypt('top secret')
    const [v, iv, tag, ct] = sealed.split('.') as [string, string, string, string]
    const flip = (s: string) => {
      const buf = Buffer.from(s, 'base64url')
      buf[0] = buf[0]! ^ 1
      return buf.toString('base64url')
    }
    expect(() => box.decrypt([v, iv, tag, flip(ct)].join('.'))).toThrow()
    expect(() => box.decrypt([v, iv, flip(tag), ct].join('.'))).toThrow()
    expect(() => box.decrypt([v, flip(iv), tag, ct].join('.'))).toThrow()
  })

  it('refuses another master key and malformed input', () => {
    const sealed = box.encrypt('top secret')
    expect(() => createSecretBox(randomBytes(32)).decrypt(sealed)).toThrow()
    expect(() => box.decrypt('garbage')).toThrow(/malformed/)
    expect(() => box.decrypt(sealed.replace(/^v1/, 'v2'))).toThrow(/malformed/)
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/)
  })
})

describe('master key', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'linkd-key-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('is generated into DATA_DIR/secret.key with mode 0600 and reused afterwards', () => {
    const dataDir = join(dir, 'nested', 'data')
    const first = loadOrCreateMasterKey(undefined, dataDir)
    expect(first.generated).toBe(true)
    expect(first.key).toHaveLength(32)
    const file = join(dataDir, 'secret.key')
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readFileSync(file, 'utf8').trim()).toBe(first.key.toString('hex'))

    const second = loadOrCreateMasterKey(undefined, dataDir)
    expect(second.generated).toBe(false)
    expect(second.key.equals(first.key)).toBe(true)
    // secrets sealed before a restart open after it
    const sealed = createSecretBox(first.key).encrypt('persisted')
    expect(createSecretBox(second.key).decrypt(sealed)).toBe('persisted')
  })

  it('LINKD_SECRET_KEY wins over the file, as hex or base64', () => {
    writeFileSync(join(dir, 'secret.key'), randomBytes(32).toString('hex'))
    const raw = randomBytes(32)
    const hex = loadOrCreateMasterKey(raw.toString('hex'), dir)
    expect(hex).toEqual({ key: raw, generated: false })
    expect(loadOrCreateMasterKey(raw.toString('base64'), dir).key.equals(raw)).toBe(true)
  })

  it('refuses keys that are not 32 bytes', () => {
    expect(() => parseMasterKey('abcd')).toThrow(/LINKD_SECRET_KEY/)
    expect(() => parseMasterKey(randomBytes(16).toString('hex'))).toThrow(/LINKD_SECRET_KEY/)
    // A damaged key file is named as the file, not as the variable nobody set.
    writeFileSync(join(dir, 'secret.key'), 'short\n')
    expect(() => loadOrCreateMasterKey(undefined, dir)).toThrow(
      `${join(dir, 'secret.key')} is not a master key (64 hex characters or base64 of 32 bytes): restore it from its backup, or set LINKD_SECRET_KEY`,
    )
  })
})

describe('helpers', () => {
  it('safeEqual compares in constant time, false for different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true)
    expect(safeEqual('abc', 'abd')).toBe(false)
    expect(safeEqual('abc', 'abcd')).toBe(false)
    expect(safeEqual('', '')).toBe(true)
    expect(safeEqual('é', 'e')).toBe(false)
    expect(safeEqual(sha256Hex('x'), sha256Hex('x'))).toBe(true)
  })

  it('ids, tokens and hashes have their documented shape', () => {
    expect(newId('key')).toMatch(/^key_[0-9a-z]{20}$/)
    expect(newId('key')).not.toBe(newId('key'))
    expect(randomToken()).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
})

import { customAlphabet } from 'nanoid'
import { AppError } from '../../http/errors.js'
import { LINK_LIMITS } from '../../../src/contract/limits.js'
import type { ReservedCodes } from './rules.js'

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** 7 characters of [A-Za-z0-9] from crypto randomness (62^7 ≈ 3.5e12 codes). */
const generateCode = customAlphabet(ALNUM, LINK_LIMITS.codeLength)
const CODE_ROUNDS = 10

/** 409 for a short code already used on the domain (by a link or a smart link), on `field`. */
export const codeTaken = (code: string, field = 'shortCode') =>
  new AppError('Conflict', `short code "${code}" is already in use on this domain`, [
    { field, message: 'already in use on this domain' },
  ])

/**
 * Short codes for the items of one domain: the chosen code (`customSlug`) when free (taken on
 * the domain, or by an earlier item, fails with 409 on `field`), else a generated code, retried
 * on collision and never reserved. `taken` tells which of the given codes are already used on
 * the domain; `generate` is the random code (tests script it).
 */
export async function assignCodes(
  taken: (codes: string[]) => Promise<Set<string>>,
  items: ReadonlyArray<{ index: number; customSlug: string | undefined }>,
  reserved: Pick<ReservedCodes, 'has'>,
  opts: { field?: string; generate?: () => string } = {},
): Promise<Map<number, string | AppError>> {
  const generate = opts.generate ?? generateCode
  const codes = new Map<number, string | AppError>()
  const slugs = items.flatMap((i) => (i.customSlug ? [i.customSlug] : []))
  const existing = await taken([...new Set(slugs)])
  const used = new Set<string>()
  for (const { index, customSlug } of items) {
    if (!customSlug) continue
    if (existing.has(customSlug) || used.has(customSlug)) {
      codes.set(index, codeTaken(customSlug, opts.field ?? 'customSlug'))
    } else {
      used.add(customSlug)
      codes.set(index, customSlug)
    }
  }
  let pending = items.filter((i) => !i.customSlug).map((i) => i.index)
  for (let round = 0; pending.length && round < CODE_ROUNDS; round++) {
    const proposed = new Map<number, string>()
    for (const index of pending) {
      let code = generate()
      while (used.has(code) || reserved.has(code)) code = generate()
      used.add(code)
      proposed.set(index, code)
    }
    const clash = await taken([...proposed.values()])
    pending = []
    for (const [index, code] of proposed) {
      if (clash.has(code)) pending.push(index)
      else codes.set(index, code)
    }
  }
  for (const index of pending)
    codes.set(index, new AppError('InternalError', 'could not generate a free short code; retry'))
  return codes
}

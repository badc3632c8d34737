/**
 * isUniqueViolation on the errors each engine really throws: the one check every service uses to
 * answer 409 when an insert loses a race to a unique key or primary key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isUniqueViolation } from '../../../daemon/db/errors.js'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
  await sqlRows(t, 'CREATE TABLE scratch (id TEXT PRIMARY KEY, code TEXT NOT NULL UNIQUE)')
  await sqlRows(t, "INSERT INTO scratch VALUES ('a', 'x')")
})
afterAll(() => t.close())

/** The error of a statement that must fail. */
async function failure(text: string): Promise<unknown> {
  try {
    await sqlRows(t, text)
  } catch (err) {
    return err
  }
  throw new Error(`did not fail: ${text}`)
}

describe('isUniqueViolation', () => {
  it('is true for a duplicate primary key and a duplicate unique column', async () => {
    expect(isUniqueViolation(await failure("INSERT INTO scratch VALUES ('a', 'y')"))).toBe(true)
    expect(isUniqueViolation(await failure("INSERT INTO scratch VALUES ('b', 'x')"))).toBe(true)
  })

  it('is false for other failures, and for a message that only names a unique constraint', async () => {
    expect(isUniqueViolation(await failure("INSERT INTO scratch VALUES ('c', NULL)"))).toBe(false)
    expect(isUniqueViolation(await failure('SELECT * FROM no_such_table'))).toBe(false)
    expect(isUniqueViolation(new Error('UNIQUE constraint failed: scratch.code'))).toBe(false)
  })
})

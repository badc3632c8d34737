import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'

describe('smoke', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(() => t.close())

  it('creates and lists keys', async () => {
    const k = await t.createKey({ name: 'ci', preset: 'analytics-only' })
    expect(k.key).toMatch(/^lk_live_[A-Za-z0-9]{32}$/)
    const list = await t.call('GET', '/api/keys')
    expect(list.statusCode).toBe(200)
    expect(list.json().total).toBe(2)
    const r = await t.call('GET', '/api/keys', { key: k.key })
    expect(r.statusCode).toBe(403)
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })
    expect(doc.statusCode).toBe(200)
  })
})

/** Fraud rules over the API: CRUD, every 400 at its boundary, 404/403/409, templates. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FraudRule } from '../../../../src/contract/fraud.js'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp, sqlRows } from '../../../support/app.js'
import { gameIdOf } from '../../../support/fraud.js'
import { createGame } from '../../../support/gaming.js'
import { evaluateRules, type CompiledRule } from '../../../../daemon/modules/gaming/fraud/evaluate.js'
import type { EventView } from '../../../../daemon/modules/gaming/fraud/fields.js'
import { createFraudService } from '../../../../daemon/modules/gaming/fraud/service.js'
import { createFraudStore } from '../../../../daemon/modules/gaming/fraud/store.js'

let t: TestApp
let game: GameWithSecrets
beforeAll(async () => {
  t = await createTestApp()
  game = await createGame(t, { modules: { fraud: true } })
})
afterAll(() => t.close())

const rulesUrl = (g = game.id) => `/api/v1/admin/fraud/games/${g}/rules`
const listRules = async (g = game.id) => {
  const res = await t.call('GET', rulesUrl(g))
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ data: FraudRule[] }>().data
}
const valid = { name: 'Big spender', action: 'flag', field: 'data.amount', operator: 'gt', value: 500 }
const create = (body: Record<string, unknown>, g = game.id) => t.call('POST', rulesUrl(g), { body })
const fieldOf = (res: { json(): unknown }) =>
  (res.json() as { details?: { field: string }[] }).details?.map((d) => d.field)

describe('templates', () => {
  it('a game created with fraud on gets the six templates, the recommended three enabled', async () => {
    const rules = await listRules()
    expect(rules.map((r) => [r.template, r.action, r.enabled, r.field, r.operator, r.value])).toEqual([
      ['Block Bot Traffic', 'block', true, 'score.bot_detection', 'gte', 0.8],
      ['Block Click Injection', 'block', true, 'score.click_injection', 'gte', 0.8],
      ['Flag Device Farms', 'flag', true, 'score.device_farm', 'gte', 0.7],
      ['Rate Limit Abuse', 'block', false, 'score.rate_limit', 'gte', 0.9],
      ['Block Emulators', 'block', false, 'score.emulator', 'gte', 0.8],
      ['Flag Revenue Anomalies', 'flag', false, 'score.revenue_anomaly', 'gte', 0.7],
    ])
    for (const r of rules) {
      expect(r.id).toMatch(/^rule_/)
      expect(r.name).toBe(r.template)
      expect(r.priority).toBe(100)
    }
  })

  it('turning fraud on by PATCH creates them once; off and on again does not duplicate', async () => {
    const g = await createGame(t)
    expect((await t.call('GET', rulesUrl(g.id))).statusCode).toBe(409)
    const patch = (fraud: boolean) =>
      t.call('PATCH', `/api/v1/admin/games/${g.id}`, { body: { modules: { fraud } } })
    expect((await patch(true)).statusCode).toBe(200)
    expect(await listRules(g.id)).toHaveLength(6)
    expect((await patch(true)).statusCode).toBe(200)
    expect((await patch(false)).statusCode).toBe(200)
    expect((await patch(true)).statusCode).toBe(200)
    expect(await listRules(g.id)).toHaveLength(6)
  })

  it('a template is an ordinary rule: it can be edited and deleted, and is not recreated', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    const [bot] = await listRules(g.id)
    const res = await t.call('PATCH', `${rulesUrl(g.id)}/${bot!.id}`, {
      body: { value: 0.95, enabled: false },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ template: 'Block Bot Traffic', value: 0.95, enabled: false })
    expect((await t.call('DELETE', `${rulesUrl(g.id)}/${bot!.id}`)).statusCode).toBe(204)
    await t.call('PATCH', `/api/v1/admin/games/${g.id}`, { body: { modules: { fraud: false } } })
    await t.call('PATCH', `/api/v1/admin/games/${g.id}`, { body: { modules: { fraud: true } } })
    expect((await listRules(g.id)).map((r) => r.name)).not.toContain('Block Bot Traffic')
  })

  it('a fraud-enabled game left without templates (the hook failed after the save) gets them at the next load', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    const internal = await gameIdOf(t, g.id)
    await sqlRows(t, 'DELETE FROM fraud_rules WHERE game_id = ?', internal)
    await sqlRows(t, 'DELETE FROM fraud_games WHERE game_id = ?', internal)
    await t.app.linkd.services.gaming.fraud.load()
    expect((await listRules(g.id)).map((r) => r.template)).toEqual([
      'Block Bot Traffic',
      'Block Click Injection',
      'Flag Device Farms',
      'Rate Limit Abuse',
      'Block Emulators',
      'Flag Revenue Anomalies',
    ])
    // Seeded once: the next load adds nothing.
    await t.app.linkd.services.gaming.fraud.load()
    expect(await listRules(g.id)).toHaveLength(6)
  })
})

describe('CRUD', () => {
  it('creates with defaults, lists by priority then creation order, updates and deletes', async () => {
    const res = await create(valid)
    expect(res.statusCode, res.body).toBe(201)
    const r = res.json<FraudRule>()
    expect(r).toMatchObject({ ...valid, priority: 100, cooldownMinutes: 0, enabled: true })
    expect(r.id).toMatch(/^rule_/)
    expect(r).not.toHaveProperty('template')
    const high = (await create({ ...valid, name: 'High', priority: 1000 })).json<FraudRule>()
    const names = (await listRules()).map((x) => x.name)
    expect(names[0]).toBe('High')
    // Equal priorities: the templates (created first) before the new rule.
    expect(names.indexOf('Big spender')).toBeGreaterThan(names.indexOf('Flag Revenue Anomalies'))

    const up = await t.call('PATCH', `${rulesUrl()}/${r.id}`, {
      body: { action: 'block', cooldownMinutes: 1440 },
    })
    expect(up.statusCode, up.body).toBe(200)
    expect(up.json()).toMatchObject({ action: 'block', cooldownMinutes: 1440, field: 'data.amount' })
    expect((await t.call('DELETE', `${rulesUrl()}/${high.id}`)).statusCode).toBe(204)
    expect((await t.call('DELETE', `${rulesUrl()}/${high.id}`)).statusCode).toBe(404)
    expect((await t.call('PATCH', `${rulesUrl()}/rule_nope`, { body: { enabled: false } })).statusCode).toBe(
      404,
    )
  })

  it('accepts the boundaries of priority and cooldown, and every field kind', async () => {
    for (const body of [
      { priority: 1, cooldownMinutes: 0 },
      { priority: 1000, cooldownMinutes: 1440 },
      { field: 'event_type', operator: 'eq', value: 'purchase' },
      { field: 'ip', operator: 'in', value: ['203.0.113.1', '198.51.100.2'] },
      { field: 'device.model', operator: 'contains', value: 'sdk_gphone' },
      { field: 'data.level.boss', operator: 'eq', value: true },
      { field: 'data.tags', operator: 'contains', value: 'vip' },
      { field: 'score.revenue_anomaly', operator: 'gte', value: 0.5 },
      { field: 'risk', operator: 'lt', value: 0.1 },
    ]) {
      const res = await create({ ...valid, ...body })
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(201)
    }
  })
})

describe('validation: 400 naming the field', () => {
  it.each([
    [{ priority: 0 }, 'priority'],
    [{ priority: 1001 }, 'priority'],
    [{ priority: 1.5 }, 'priority'],
    [{ cooldownMinutes: -1 }, 'cooldownMinutes'],
    [{ cooldownMinutes: 1441 }, 'cooldownMinutes'],
    [{ action: 'ban' }, 'action'],
    [{ operator: 'like' }, 'operator'],
    [{ name: '' }, 'name'],
    [{ field: 'nope' }, 'field'],
    [{ field: 'data.' }, 'field'],
    [{ field: 'data.a..b' }, 'field'],
    [{ field: 'score.unknown_threat' }, 'field'],
    [{ field: 'device.imei' }, 'field'],
    [{ operator: 'gt', value: '500' }, 'value'],
    [{ operator: 'lte', value: [1] }, 'value'],
    [{ operator: 'in', value: 5 }, 'value'],
    [{ operator: 'in', value: [] }, 'value'],
    [{ operator: 'eq', value: [1, 2] }, 'value'],
    [{ field: 'event_type', operator: 'gt', value: 5 }, 'operator'],
    [{ field: 'score.bot_detection', operator: 'contains', value: 'x' }, 'operator'],
    [{ field: 'score.bot_detection', operator: 'eq', value: 'high' }, 'value'],
    [{ field: 'score.bot_detection', operator: 'in', value: ['high'] }, 'value'],
    [{ field: 'platform', operator: 'eq', value: 1 }, 'value'],
    [{ field: 'platform', operator: 'contains', value: 1 }, 'value'],
    [{ value: { gt: 1 } }, 'value'],
    [{ value: null }, 'value'],
    [{ operator: 'in', value: [1, [2]] }, 'value'],
    [{ operator: 'eq', value: 'x'.repeat(1023) }, 'value'],
  ])('%j → 400 on %s', async (over, field) => {
    const res = await create({ ...valid, ...over })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toMatchObject({ error: 'ValidationError' })
    expect(fieldOf(res)?.join(' ')).toContain(field)
  })

  it('a PATCH is validated against the merged rule', async () => {
    const r = (await create(valid)).json<FraudRule>()
    const res = await t.call('PATCH', `${rulesUrl()}/${r.id}`, { body: { operator: 'in' } })
    expect(res.statusCode, res.body).toBe(400)
    expect(fieldOf(res)).toEqual(['value'])
    const empty = await t.call('PATCH', `${rulesUrl()}/${r.id}`, { body: {} })
    expect(empty.statusCode).toBe(400)
  })
})

describe('access', () => {
  it('another organization gets 404 for the game; a key without the scope 403', async () => {
    const other = await t.createOrg('other-fraud')
    expect((await t.call('GET', rulesUrl(), { key: other.ownerKey })).statusCode).toBe(404)
    expect((await t.call('POST', rulesUrl(), { key: other.ownerKey, body: valid })).statusCode).toBe(404)
    const reader = await t.createKey({ permissions: ['fraud:read'] })
    expect((await t.call('GET', rulesUrl(), { key: reader.key })).statusCode).toBe(200)
    expect((await t.call('POST', rulesUrl(), { key: reader.key, body: valid })).statusCode).toBe(403)
    const gamesOnly = await t.createKey({ permissions: ['games:read'] })
    expect((await t.call('GET', rulesUrl(), { key: gamesOnly.key })).statusCode).toBe(403)
    expect((await t.call('GET', rulesUrl('no-such-game'))).statusCode).toBe(404)
  })

  it('a game whose fraud module is off answers 409 on every fraud route', async () => {
    const g = await createGame(t)
    const res = await create(valid, g.id)
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ error: 'Conflict' })
    expect((await t.call('GET', `/api/v1/admin/fraud/games/${g.id}/blocklist`)).statusCode).toBe(409)
  })
})

describe('the compiled rules the pipeline evaluates', () => {
  const internalId = (slug: string) => gameIdOf(t, slug)
  const view = (scores: Record<string, number>): EventView => ({
    playerId: 'p1',
    attributes: {},
    data: null,
    device: {},
    scores,
    risk: 0,
  })

  it('follow every change through the API, and load from the database at start-up', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    const id = await internalId(g.id)
    const { fraud } = t.app.linkd.services.gaming
    const judge = (rules: readonly CompiledRule[]) =>
      evaluateRules(rules, view({ bot_detection: 0.85, emulator: 0.9 }), () => undefined, t.clock.now())
    // Templates: Block Bot Traffic on, Block Emulators off.
    expect(judge(fraud.rulesOf(id))).toMatchObject({ action: 'block', triggered: ['Block Bot Traffic'] })
    const rules = await listRules(g.id)
    const bot = rules.find((r) => r.template === 'Block Bot Traffic')!
    const emulators = rules.find((r) => r.template === 'Block Emulators')!
    await t.call('PATCH', `${rulesUrl(g.id)}/${bot.id}`, { body: { action: 'flag' } })
    await t.call('PATCH', `${rulesUrl(g.id)}/${emulators.id}`, { body: { enabled: true, priority: 900 } })
    expect(judge(fraud.rulesOf(id))).toMatchObject({
      action: 'block',
      triggered: ['Block Emulators', 'Block Bot Traffic'],
    })
    await t.call('DELETE', `${rulesUrl(g.id)}/${emulators.id}`)
    expect(judge(fraud.rulesOf(id))).toMatchObject({ action: 'flag', triggered: ['Block Bot Traffic'] })

    const restarted = createFraudService({
      store: createFraudStore(t.db.kysely),
      clock: t.clock,
      games: t.app.linkd.services.gaming.games,
    })
    expect(restarted.rulesOf(id)).toEqual([])
    await restarted.load()
    expect(judge(restarted.rulesOf(id))).toEqual(judge(fraud.rulesOf(id)))
  })
})

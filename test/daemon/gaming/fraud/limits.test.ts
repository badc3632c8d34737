/**
 * Fraud rules are bounded: rules per game, a value's size, an `in` list's length (each at the
 * limit passes, one past fails), the rule names a fraud event keeps, and a rule write recompiles
 * only its own game's rules (in this process and, through the change feed, in the others).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FRAUD_LIMITS, type FraudEvent, type FraudRule } from '../../../../src/contract/fraud.js'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { ChangeFeed, ChangeTopic } from '../../../../daemon/db/notify.js'
import { EVERYTHING } from '../../../../daemon/db/notify.js'
import { BLOCKLIST_CHANGED, createFraudService } from '../../../../daemon/modules/gaming/fraud/service.js'
import { createFraudStore } from '../../../../daemon/modules/gaming/fraud/store.js'
import { followFraudNotices } from '../../../../daemon/modules/gaming/fraud/index.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { gameIdOf } from '../../../support/fraud.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'
import { expectError } from '../../../support/responses.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000 })
})
afterAll(() => t.close())

const L = FRAUD_LIMITS
const rulesUrl = (g: { id: string }) => `/api/v1/admin/fraud/games/${g.id}/rules`
const rule = (over: Record<string, unknown> = {}) => ({
  name: 'rule',
  action: 'log',
  field: 'data.build',
  operator: 'eq',
  value: 'x',
  ...over,
})
const create = (g: { id: string }, body: Record<string, unknown>) => t.call('POST', rulesUrl(g), { body })
const fraudGame = () => createGame(t, { modules: { fraud: true } })

describe('rules per game', () => {
  it(`${L.rulesPerGame} rules (the six templates included) pass; the next is a 409 saying why`, async () => {
    const g = await fraudGame()
    const templates = (await t.call('GET', rulesUrl(g))).json<{ data: FraudRule[] }>().data.length
    expect(templates).toBe(6)
    for (let i = templates; i < L.rulesPerGame; i++) {
      const res = await create(g, rule({ name: `rule ${i}` }))
      expect(res.statusCode, res.body).toBe(201)
    }
    const over = await create(g, rule({ name: 'one too many' }))
    const body = expectError(over, 409, 'Conflict')
    expect(body.message).toBe(
      `game ${g.id} has ${L.rulesPerGame} fraud rules, the most a game may have (templates included): delete or change one instead`,
    )
    const list = (await t.call('GET', `${rulesUrl(g)}?limit=100`)).json<{ data: FraudRule[] }>().data
    expect(list).toHaveLength(L.rulesPerGame)
    // Another game has its own budget; deleting one rule makes room again.
    expect((await create(await fraudGame(), rule())).statusCode).toBe(201)
    expect((await t.call('DELETE', `${rulesUrl(g)}/${list.at(-1)!.id}`)).statusCode).toBe(204)
    expect((await create(g, rule({ name: 'room again' }))).statusCode).toBe(201)
  })
})

describe('rule values', () => {
  let g: GameWithSecrets
  beforeAll(async () => {
    g = await fraudGame()
  })
  const refused = async (
    body: Record<string, unknown>,
    message: string,
    method = 'POST',
    url = rulesUrl(g),
  ) => {
    const res = await t.call(method as 'POST', url, { body })
    expect(expectError(res, 400, 'ValidationError').details).toEqual([{ field: 'value', message }])
  }

  it(`a value of ${L.valueBytesMax} bytes as JSON passes; one byte more is a 400 naming value`, async () => {
    // JSON adds the two quotes; é is two bytes in UTF-8.
    const atLimit = 'x'.repeat(L.valueBytesMax - 2)
    expect((await create(g, rule({ value: atLimit }))).statusCode).toBe(201)
    expect((await create(g, rule({ value: 'é'.repeat((L.valueBytesMax - 2) / 2) }))).statusCode).toBe(201)
    await refused(
      rule({ value: `${atLimit}x` }),
      `at most ${L.valueBytesMax} bytes as JSON (this one is 1025)`,
    )
    await refused(
      rule({ value: `${'é'.repeat((L.valueBytesMax - 2) / 2 - 1)}xxx` }),
      `at most ${L.valueBytesMax} bytes as JSON (this one is 1025)`,
    )
    // An in list counts as a whole: 100 values of 9 characters are 1,101 bytes.
    await refused(
      rule({
        operator: 'in',
        value: Array.from({ length: 100 }, (_, i) => `v${String(i).padStart(7, '0')}`),
      }),
      `at most ${L.valueBytesMax} bytes as JSON (this one is 1101)`,
    )
  })

  it(`an in list of ${L.inValuesMax} values passes; ${L.inValuesMax + 1} is a 400 naming value`, async () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => i)
    expect((await create(g, rule({ operator: 'in', value: values(L.inValuesMax) }))).statusCode).toBe(201)
    await refused(
      rule({ operator: 'in', value: values(L.inValuesMax + 1) }),
      `at most ${L.inValuesMax} values (an in list holds ${L.inValuesMax + 1})`,
    )
  })

  it('a PATCH is held to the same bounds', async () => {
    const r = (await create(g, rule())).json<FraudRule>()
    await refused(
      { value: 'x'.repeat(L.valueBytesMax) },
      `at most ${L.valueBytesMax} bytes as JSON (this one is 1026)`,
      'PATCH',
      `${rulesUrl(g)}/${r.id}`,
    )
  })
})

describe('triggered rules of a fraud event', () => {
  it(`names the first ${L.triggeredNamesKept} rules that fired and counts them all`, async () => {
    const g = await fraudGame()
    for (let i = 0; i < 12; i++) {
      const res = await create(
        g,
        rule({ name: `flag ${String(i).padStart(2, '0')}`, action: 'flag', value: 'bad', priority: 500 - i }),
      )
      expect(res.statusCode, res.body).toBe(201)
    }
    await create(g, rule({ name: 'block it', action: 'block', value: 'bad', priority: 1 }))
    const r = accepted(
      await send(t, batch(t, [event(t, { player_id: 'p1', data: { build: 'bad' } })]), {
        game: g,
        orgId: t.orgId,
        ip: '198.51.100.9',
      }),
    )
    expect(r).toMatchObject({ blocked: 1, accepted: 0 })
    const names = Array.from({ length: L.triggeredNamesKept }, (_, i) => `flag ${String(i).padStart(2, '0')}`)
    expect(r.errors[0]!.message).toBe(`blocked: ${names.join('; ')}`)
    const res = await t.call('GET', `/api/v1/admin/fraud/games/${g.id}/events`)
    expect(res.statusCode, res.body).toBe(200)
    const [e] = res.json<{ data: FraudEvent[] }>().data
    expect(e).toMatchObject({ status: 'blocked', triggeredRules: names, triggeredRuleCount: 13 })
  })
})

describe('compiling rules', () => {
  it("a rule write reads and compiles its own game's rules only", async () => {
    const a = await fraudGame()
    const b = await fraudGame()
    const store = createFraudStore(t.db.kysely)
    const reads: string[] = []
    const announced: string[] = []
    const counted: typeof store = {
      ...store,
      rules: (gameId) => (reads.push(gameId), store.rules(gameId)),
      allRules: () => (reads.push('*'), store.allRules()),
    }
    const fraud = createFraudService({
      store: counted,
      clock: t.clock,
      games: t.app.linkd.services.gaming.games,
      announce: (gameId) => announced.push(gameId),
    })
    await fraud.load()
    const [idA, idB] = [await gameIdOf(t, a.id), await gameIdOf(t, b.id)]
    const compiledB = fraud.rulesOf(idB)
    reads.length = 0
    await fraud.createRule(t.orgId, a.id, {
      name: 'r',
      action: 'log',
      field: 'country',
      operator: 'eq',
      value: 'DE',
    })
    expect(reads).toEqual([idA])
    expect(announced).toEqual([idA])
    expect(fraud.rulesOf(idA).map((r) => r.name)).toContain('r')
    // Game B's compiled rules are the very same objects.
    expect(fraud.rulesOf(idB)).toBe(compiledB)
  })

  it("another process's notice naming a game reloads that game's rules; the blocklist's, the blocklist; a lost notice, everything", async () => {
    const handlers = new Map<ChangeTopic, (key: string) => void>()
    const feed: ChangeFeed = {
      publish() {},
      on: (topic, handler) => void handlers.set(topic, handler),
      start: async () => {},
      stop: async () => {},
    }
    const calls: string[] = []
    followFraudNotices(
      feed,
      {
        load: async () => void calls.push('load'),
        reloadRules: async (gameId) => void calls.push(`game ${gameId}`),
        reloadBlocks: async () => void calls.push('blocklist'),
      },
      t.app.log,
    )
    handlers.get('fraud')!('gam_1')
    handlers.get('fraud')!(BLOCKLIST_CHANGED)
    handlers.get('fraud')!(EVERYTHING)
    await new Promise((r) => setImmediate(r))
    expect(calls).toEqual(['game gam_1', 'blocklist', 'load'])
  })
})

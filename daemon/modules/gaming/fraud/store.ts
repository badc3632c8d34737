import type { Kysely, Selectable } from 'kysely'
import type { Database, FraudBlocklistTable, FraudRulesTable } from '../../../db/schema.js'
import type { BlockType, RuleAction, RuleOperator, RuleValue } from '../../../../src/contract/fraud.js'
import type { RuleSpec } from './evaluate.js'

export interface RuleRecord extends RuleSpec {
  gameId: string
  template: string | null
  createdAt: number
  updatedAt: number
}

export interface BlockRecord {
  id: string
  gameId: string
  type: BlockType
  value: string
  reason: string
  createdAt: number
  expiresAt: number
}

const toRule = (r: Selectable<FraudRulesTable>): RuleRecord => ({
  id: r.id,
  gameId: r.game_id,
  name: r.name,
  action: r.action as RuleAction,
  field: r.field,
  operator: r.operator as RuleOperator,
  value: JSON.parse(r.value) as RuleValue,
  priority: r.priority,
  cooldownMinutes: r.cooldown_minutes,
  enabled: r.enabled === 1,
  template: r.template,
  seq: Number(r.seq),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
})

const ruleRow = (r: RuleRecord) => ({
  id: r.id,
  game_id: r.gameId,
  name: r.name,
  action: r.action,
  field: r.field,
  operator: r.operator,
  value: JSON.stringify(r.value),
  priority: r.priority,
  cooldown_minutes: r.cooldownMinutes,
  enabled: r.enabled ? 1 : 0,
  template: r.template,
  seq: r.seq,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
})

const toBlock = (r: Selectable<FraudBlocklistTable>): BlockRecord => ({
  id: r.id,
  gameId: r.game_id,
  type: r.type as BlockType,
  value: r.value,
  reason: r.reason,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
})

/** Fraud rules, blocklist entries and the template seeding marks (SQL of the fraud module). */
export function createFraudStore(db: Kysely<Database>) {
  /** A game's rules in evaluation order (priority high first, then creation order). */
  const gameRules = (gameId: string) =>
    db
      .selectFrom('fraud_rules')
      .selectAll()
      .where('game_id', '=', gameId)
      .orderBy('priority', 'desc')
      .orderBy('seq', 'asc')
  return {
    /** A game's rules in evaluation order. */
    async rules(gameId: string): Promise<RuleRecord[]> {
      return (await gameRules(gameId).execute()).map(toRule)
    },
    /** A page of a game's rules in evaluation order, and how many it has. */
    async rulesPage(
      gameId: string,
      page: { offset: number; limit: number },
    ): Promise<{ rows: RuleRecord[]; total: number }> {
      const rows = await gameRules(gameId).offset(page.offset).limit(page.limit).execute()
      return { rows: rows.map(toRule), total: await this.countRules(gameId) }
    },
    /** Every game's rules (the in-memory cache at start-up). */
    async allRules(): Promise<RuleRecord[]> {
      const rows = await db.selectFrom('fraud_rules').selectAll().orderBy('game_id').orderBy('seq').execute()
      return rows.map(toRule)
    },
    async rule(gameId: string, id: string): Promise<RuleRecord | undefined> {
      const r = await db
        .selectFrom('fraud_rules')
        .selectAll()
        .where('game_id', '=', gameId)
        .where('id', '=', id)
        .executeTakeFirst()
      return r && toRule(r)
    },
    /** The next creation sequence number of a game's rules. */
    async nextSeq(gameId: string): Promise<number> {
      const r = await db
        .selectFrom('fraud_rules')
        .select((eb) => eb.fn.max('seq').as('top'))
        .where('game_id', '=', gameId)
        .executeTakeFirst()
      return Number(r?.top ?? 0) + 1
    },
    /** How many rules a game has. */
    async countRules(gameId: string): Promise<number> {
      const r = await db
        .selectFrom('fraud_rules')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('game_id', '=', gameId)
        .executeTakeFirst()
      return Number(r?.n ?? 0)
    },
    async insertRules(rules: RuleRecord[]): Promise<void> {
      if (rules.length) await db.insertInto('fraud_rules').values(rules.map(ruleRow)).execute()
    },
    async saveRule(r: RuleRecord): Promise<void> {
      const { id: _id, game_id: _game, ...row } = ruleRow(r)
      await db.updateTable('fraud_rules').set(row).where('id', '=', r.id).execute()
    },
    async deleteRule(gameId: string, id: string): Promise<boolean> {
      const r = await db
        .deleteFrom('fraud_rules')
        .where('game_id', '=', gameId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(r.numDeletedRows) > 0
    },

    /**
     * A game's template rules, once: inserted with the game's "templates created" mark in one
     * transaction; false (nothing written) when the mark was there already.
     */
    /** The games whose templates were created. */
    async seededGames(): Promise<Set<string>> {
      const rows = await db.selectFrom('fraud_games').select('game_id').execute()
      return new Set(rows.map((r) => r.game_id))
    },
    async seedTemplates(gameId: string, at: number, rules: RuleRecord[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const mark = await trx
          .insertInto('fraud_games')
          .values({ game_id: gameId, templates_at: at })
          .onConflict((oc) => oc.column('game_id').doNothing())
          .executeTakeFirst()
        if (Number(mark.numInsertedOrUpdatedRows ?? 0) === 0) return false
        if (rules.length) await trx.insertInto('fraud_rules').values(rules.map(ruleRow)).execute()
        return true
      })
    },

    /** A page of a game's blocklist, newest first, and the total. */
    async blocklist(
      gameId: string,
      page: { offset: number; limit: number },
    ): Promise<{ rows: BlockRecord[]; total: number }> {
      const rows = await db
        .selectFrom('fraud_blocklist')
        .selectAll()
        .where('game_id', '=', gameId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(page.offset)
        .limit(page.limit)
        .execute()
      const count = await db
        .selectFrom('fraud_blocklist')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('game_id', '=', gameId)
        .executeTakeFirst()
      return { rows: rows.map(toBlock), total: Number(count?.n ?? 0) }
    },
    /** Every entry not expired at `now` (the in-memory look-up). */
    async liveBlocks(now: number): Promise<BlockRecord[]> {
      const rows = await db.selectFrom('fraud_blocklist').selectAll().where('expires_at', '>', now).execute()
      return rows.map(toBlock)
    },
    /** A game's live entries (not expired at `now`) counted by type. */
    async liveBlockCounts(gameId: string, now: number): Promise<Record<BlockType, number>> {
      const rows = await db
        .selectFrom('fraud_blocklist')
        .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
        .where('game_id', '=', gameId)
        .where('expires_at', '>', now)
        .groupBy('type')
        .execute()
      const counts: Record<BlockType, number> = { ip: 0, device: 0 }
      for (const r of rows) counts[r.type as BlockType] = Number(r.n)
      return counts
    },
    async blockByValue(gameId: string, type: BlockType, value: string): Promise<BlockRecord | undefined> {
      const r = await db
        .selectFrom('fraud_blocklist')
        .selectAll()
        .where('game_id', '=', gameId)
        .where('type', '=', type)
        .where('value', '=', value)
        .executeTakeFirst()
      return r && toBlock(r)
    },
    async insertBlock(b: BlockRecord): Promise<void> {
      await db
        .insertInto('fraud_blocklist')
        .values({
          id: b.id,
          game_id: b.gameId,
          type: b.type,
          value: b.value,
          reason: b.reason,
          created_at: b.createdAt,
          expires_at: b.expiresAt,
        })
        .execute()
    },
    async deleteBlock(gameId: string, id: string): Promise<boolean> {
      const r = await db
        .deleteFrom('fraud_blocklist')
        .where('game_id', '=', gameId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(r.numDeletedRows) > 0
    },
    /** Removes the entries expired at `now`; how many. */
    async expireBlocks(now: number): Promise<number> {
      const r = await db.deleteFrom('fraud_blocklist').where('expires_at', '<=', now).executeTakeFirst()
      return Number(r.numDeletedRows)
    },
  }
}
export type FraudStore = ReturnType<typeof createFraudStore>

import type { Clock } from '../../../clock.js'
import { DAY_MS, iso } from '../../../clock.js'
import { newId } from '../../../crypto.js'
import { AppError, notFound } from '../../../http/errors.js'
import { isUniqueViolation } from '../../../db/errors.js'
import { pageOf, pageParams } from '../../../http/pagination.js'
import type { PageOf, PageQuery } from '../../../../src/contract/common.js'
import {
  FRAUD_LIMITS as L,
  type BlocklistEntry,
  type CreateBlocklistBody,
  type CreateRuleBody,
  type FraudRule,
  type UpdateRuleBody,
} from '../../../../src/contract/fraud.js'
import type { GameRecord, GameService } from '../games/index.js'
import { createBlocklistIndex, entryValue } from './blocklist.js'
import { compileRules, createCooldownStore, type CompiledRule } from './evaluate.js'
import { checkRule } from './fields.js'
import type { BlockRecord, FraudStore, RuleRecord } from './store.js'
import { TEMPLATES } from './templates.js'
import type { FraudService } from './api.js'

/** What `announce` says when the blocklist changed (game ids start with `gam_`). */
export const BLOCKLIST_CHANGED = 'blocklist'

export interface FraudServiceDeps {
  store: FraudStore
  clock: Clock
  games: Pick<GameService, 'record' | 'all'>
  /**
   * Rules or the blocklist changed here: tells the other linkd processes (db/notify.ts) the game
   * whose rules changed (they recompile that game's rules only), or BLOCKLIST_CHANGED.
   */
  announce?(what: string): void
}

export function presentRule(r: RuleRecord): FraudRule {
  return {
    id: r.id,
    name: r.name,
    action: r.action,
    field: r.field,
    operator: r.operator,
    value: r.value,
    priority: r.priority,
    cooldownMinutes: r.cooldownMinutes,
    enabled: r.enabled,
    ...(r.template ? { template: r.template } : {}),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  }
}

export function presentBlock(b: BlockRecord): BlocklistEntry {
  return {
    id: b.id,
    type: b.type,
    value: b.value,
    reason: b.reason,
    createdAt: iso(b.createdAt),
    expiresAt: iso(b.expiresAt),
  }
}

/**
 * Fraud rules (CRUD, validation, the six templates) and the blocklist (CRUD, expiry, the lookup
 * the fraud stage makes before detection). Rules and blocklist are cached in memory per game,
 * rebuilt after every change made through this service.
 */
export function createFraudService(deps: FraudServiceDeps): FraudService {
  const { store } = deps
  const now = () => deps.clock.now()
  const compiled = new Map<string, CompiledRule[]>()
  const cooldowns = createCooldownStore()
  const blocks = createBlocklistIndex()

  /** The game of a fraud route: 404 in another organization, 409 while fraud is off. */
  async function fraudGame(organizationId: string, slug: string): Promise<GameRecord> {
    const game = await deps.games.record(organizationId, slug)
    if (!game.modules.fraud)
      throw new AppError(
        'Conflict',
        `fraud detection is off for game ${slug}: turn it on with linkctl games update ${slug} --fraud ` +
          `(API: PATCH /api/v1/admin/games/${slug} with {"modules":{"fraud":true}})`,
      )
    return game
  }
  async function loadRule(gameId: string, ruleId: string): Promise<RuleRecord> {
    const r = await store.rule(gameId, ruleId)
    if (!r) throw notFound(`rule ${ruleId}`)
    return r
  }
  const reloadBlocks = async () => blocks.load(await store.liveBlocks(now()))
  /** A game's rules compiled again (only that game's: a rule write never recompiles the others). */
  const reloadRules = async (gameId: string) => {
    const rules = await store.rules(gameId)
    if (rules.length) compiled.set(gameId, compileRules(rules))
    else compiled.delete(gameId)
  }
  /** After a change made here: this process's caches, then the other processes'. */
  const recompile = async (gameId: string) => {
    await reloadRules(gameId)
    deps.announce?.(gameId)
  }
  const blocksChanged = async () => {
    await reloadBlocks()
    deps.announce?.(BLOCKLIST_CHANGED)
  }

  /** Creates the six templates for a game, once (see `enableFor`). */
  async function seed(game: GameRecord): Promise<void> {
    const t = now()
    let seq = await store.nextSeq(game.id)
    const rules = TEMPLATES.map((tpl) => ({
      id: newId('rule'),
      gameId: game.id,
      ...tpl,
      priority: L.priorityDefault,
      cooldownMinutes: 0,
      template: tpl.name,
      seq: seq++,
      createdAt: t,
      updatedAt: t,
    }))
    await store.seedTemplates(game.id, t, rules)
  }

  return {
    /**
     * Fills the caches from the database (at start-up, then every 30 s). A fraud-enabled game
     * whose templates were never created (the hook failed after the game was saved) gets them.
     */
    async load(): Promise<void> {
      const seeded = await store.seededGames()
      for (const game of await deps.games.all())
        if (game.modules.fraud && !seeded.has(game.id)) await seed(game)
      const byGame = new Map<string, RuleRecord[]>()
      for (const r of await store.allRules()) byGame.set(r.gameId, [...(byGame.get(r.gameId) ?? []), r])
      compiled.clear()
      for (const [gameId, rules] of byGame) compiled.set(gameId, compileRules(rules))
      await reloadBlocks()
    },

    /** The game of a fraud route: 404 in another organization, 409 while fraud is off. */
    fraudGame,

    /** One game's rules from the database again (another process changed them). */
    reloadRules,
    /** The live blocklist from the database again (another process changed it). */
    reloadBlocks,

    /** The game's enabled rules, ordered and compiled (the pipeline's evaluation input). */
    rulesOf: (gameId: string): readonly CompiledRule[] => compiled.get(gameId) ?? [],
    /** The bounded cooldown state (LRU of rule × player → last firing). */
    cooldowns,

    /**
     * Creates the six templates for a game, once: a game whose templates were created before
     * (fraud turned off and on again) gets none.
     */
    async enableFor(game: GameRecord): Promise<void> {
      await seed(game)
      await recompile(game.id)
    },

    async listRules(organizationId: string, slug: string, q: PageQuery): Promise<PageOf<FraudRule>> {
      const game = await fraudGame(organizationId, slug)
      const p = pageParams(q)
      const { rows, total } = await store.rulesPage(game.id, { offset: p.offset, limit: p.perPage })
      return pageOf(rows.map(presentRule), total, p)
    },

    async createRule(organizationId: string, slug: string, body: CreateRuleBody): Promise<FraudRule> {
      const game = await fraudGame(organizationId, slug)
      checkRule(body.field, body.operator, body.value)
      // Every event of the game is tested against every rule: a bounded list.
      if ((await store.countRules(game.id)) >= L.rulesPerGame)
        throw new AppError(
          'Conflict',
          `game ${slug} has ${L.rulesPerGame} fraud rules, the most a game may have (templates included): delete or change one instead`,
        )
      const t = now()
      const r: RuleRecord = {
        id: newId('rule'),
        gameId: game.id,
        name: body.name.trim(),
        action: body.action,
        field: body.field,
        operator: body.operator,
        value: body.value,
        priority: body.priority ?? L.priorityDefault,
        cooldownMinutes: body.cooldownMinutes ?? 0,
        enabled: body.enabled ?? true,
        template: null,
        seq: await store.nextSeq(game.id),
        createdAt: t,
        updatedAt: t,
      }
      await store.insertRules([r])
      await recompile(game.id)
      return presentRule(r)
    },

    async updateRule(
      organizationId: string,
      slug: string,
      ruleId: string,
      body: UpdateRuleBody,
    ): Promise<FraudRule> {
      const game = await fraudGame(organizationId, slug)
      const r = await loadRule(game.id, ruleId)
      const next: RuleRecord = {
        ...r,
        ...(body.name !== undefined ? { name: body.name.trim() } : {}),
        ...(body.action !== undefined ? { action: body.action } : {}),
        ...(body.field !== undefined ? { field: body.field } : {}),
        ...(body.operator !== undefined ? { operator: body.operator } : {}),
        ...(body.value !== undefined ? { value: body.value } : {}),
        ...(body.priority !== undefined ? { priority: body.priority } : {}),
        ...(body.cooldownMinutes !== undefined ? { cooldownMinutes: body.cooldownMinutes } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        updatedAt: now(),
      }
      checkRule(next.field, next.operator, next.value)
      await store.saveRule(next)
      // A rule whose test changed starts with a clean cooldown.
      if (
        next.field !== r.field ||
        next.operator !== r.operator ||
        JSON.stringify(next.value) !== JSON.stringify(r.value)
      )
        cooldowns.forgetRule(r.id)
      await recompile(game.id)
      return presentRule(next)
    },

    async deleteRule(organizationId: string, slug: string, ruleId: string): Promise<void> {
      const game = await fraudGame(organizationId, slug)
      if (!(await store.deleteRule(game.id, ruleId))) throw notFound(`rule ${ruleId}`)
      cooldowns.forgetRule(ruleId)
      await recompile(game.id)
    },

    async listBlocklist(organizationId: string, slug: string, q: PageQuery): Promise<PageOf<BlocklistEntry>> {
      const game = await fraudGame(organizationId, slug)
      const p = pageParams(q)
      const { rows, total } = await store.blocklist(game.id, { offset: p.offset, limit: p.perPage })
      return pageOf(rows.map(presentBlock), total, p)
    },

    /** Lists an IP or device for 30 days; 409 when it is listed already. */
    async addBlock(organizationId: string, slug: string, body: CreateBlocklistBody): Promise<BlocklistEntry> {
      const game = await fraudGame(organizationId, slug)
      const value = entryValue(body.type, body.value)
      const t = now()
      const duplicate = () =>
        new AppError('Conflict', `${body.type} ${value} is already on the blocklist of game ${slug}`)
      if (await store.blockByValue(game.id, body.type, value)) throw duplicate()
      const b: BlockRecord = {
        id: newId('blk'),
        gameId: game.id,
        type: body.type,
        value,
        reason: (body.reason ?? '').trim(),
        createdAt: t,
        expiresAt: t + L.blocklistTtlDays * DAY_MS,
      }
      try {
        await store.insertBlock(b)
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate()
        throw err
      }
      await blocksChanged()
      return presentBlock(b)
    },

    async removeBlock(organizationId: string, slug: string, entryId: string): Promise<void> {
      const game = await fraudGame(organizationId, slug)
      if (!(await store.deleteBlock(game.id, entryId))) throw notFound(`blocklist entry ${entryId}`)
      await blocksChanged()
    },

    /** Removes the entries past their 30 days (the fraud-blocklist-expiry job); how many. */
    async expireBlocklist(): Promise<number> {
      const n = await store.expireBlocks(now())
      await blocksChanged()
      return n
    },

    /**
     * Whether an IP or a device fingerprint of a game is on its live blocklist ('ip', 'device'
     * or undefined), from memory: the fraud stage asks before any detection.
     */
    listed: (gameId: string, ip: string, fingerprint: string | null, at: number) =>
      blocks.match(gameId, ip, fingerprint, at),
  }
}

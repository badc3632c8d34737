/** linkctl fraud rules / blocklist against the real daemon (loopback), through the whole CLI. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../src/contract/common.js'
import type { BlocklistEntry, FraudRule } from '../../src/contract/fraud.js'
import { createGame } from '../support/gaming.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli, decliningCtx } from '../support/cli.js'
import { runFraudBlocklistRemove } from '../../src/cli/commands/fraud/blocklist/remove.js'

let d: TestDaemon
let env: NodeJS.ProcessEnv
let game: string
beforeAll(async () => {
  d = await startTestDaemon()
  env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
  game = (await createGame(d.testApp, { name: 'Fraud CLI', modules: { fraud: true } })).id
})
afterAll(() => d.close())

const json = async <T>(argv: string[]): Promise<T> => {
  const r = await cli([...argv, '--json'], { env })
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as T
}

describe('linkctl fraud rules', () => {
  it('a rule the API refuses prints its problem once, naming the field', async () => {
    const r = await cli(
      [
        'fraud',
        'rules',
        'create',
        game,
        '--name',
        'bad',
        '--action',
        'block',
        '--field',
        'score.bot_detection',
      ].concat(['--operator', 'contains', '--value', 'x']),
      { env },
    )
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      'error: operator: contains does not apply to the number field score.bot_detection (HTTP 400)\n',
    )
  })

  it('list shows the six templates, tab-separated when piped', async () => {
    const r = await cli(['fraud', 'rules', 'list', game], { env })
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toBe('ID\tNAME\tACTION\tCONDITION\tPRIORITY\tCOOLDOWN\tENABLED\tUPDATED')
    expect(lines).toHaveLength(7)
    expect(lines[1]).toMatch(
      /^rule_\w+\tBlock Bot Traffic\tblock\tscore\.bot_detection gte 0\.8\t100\tnone\tyes\t/,
    )
    const page = await json<PageOf<FraudRule>>(['fraud', 'rules', 'list', game])
    expect(page).toMatchObject({ total: 6, page: 1, perPage: 20, hasMore: false })
    expect(page.data.filter((x) => x.enabled)).toHaveLength(3)
  })

  it('a cooldown reads the same in the list and in what create and update print: none for 0, else minutes', async () => {
    const create = (name: string, cooldown: string) =>
      cli(
        ['fraud', 'rules', 'create', game, '--name', name, '--action', 'log', '--field', 'country'].concat([
          '--operator',
          'eq',
          '--value',
          'XX',
          '--cooldown',
          cooldown,
          '--disabled',
        ]),
        { env },
      )
    // A record piped: a header line and a line of values.
    const cooldownOf = (stdout: string) => {
      const [header, values] = stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t'))
      return values![header!.indexOf('COOLDOWN')]
    }
    try {
      const none = await create('Cooldown none', '0')
      expect(none.code, none.stderr).toBe(0)
      expect(cooldownOf(none.stdout)).toBe('none')
      const some = await create('Cooldown some', '15')
      expect(cooldownOf(some.stdout)).toBe('15 min')
      const list = await cli(['fraud', 'rules', 'list', game, '--all', '--columns', 'name,cooldown'], { env })
      expect(list.stdout).toContain('Block Bot Traffic\tnone\n')
      expect(list.stdout).toContain('Cooldown none\tnone\n')
      expect(list.stdout).toContain('Cooldown some\t15 min\n')
      const updated = await cli(['fraud', 'rules', 'update', game, 'Cooldown some', '--cooldown', '0'], {
        env,
      })
      expect(cooldownOf(updated.stdout)).toBe('none')
    } finally {
      for (const name of ['Cooldown none', 'Cooldown some'])
        await cli(['fraud', 'rules', 'delete', game, name, '--yes'], { env })
    }
  })

  it('list pages like the other lists: --limit, --page, --all', async () => {
    const first = await cli(['fraud', 'rules', 'list', game, '--limit', '4'], { env })
    expect(first.stdout.trim().split('\n')).toHaveLength(5)
    expect(first.stderr).toBe('showing 4 of 6; more with --limit <n> or --all\n')
    const second = await json<PageOf<FraudRule>>([
      'fraud',
      'rules',
      'list',
      game,
      '--limit',
      '4',
      '--page',
      '2',
    ])
    expect(second).toMatchObject({ page: 2, perPage: 4, total: 6, hasMore: false })
    expect(second.data).toHaveLength(2)
    const all = await json<PageOf<FraudRule>>(['fraud', 'rules', 'list', game, '--all'])
    expect(all.data.map((r) => r.id)).toEqual([
      ...(await json<PageOf<FraudRule>>(['fraud', 'rules', 'list', game, '--limit', '4'])).data.map(
        (r) => r.id,
      ),
      ...second.data.map((r) => r.id),
    ])
  })

  it('create reads --value as a number, a list for in, or JSON text; update, disable and enable by name', async () => {
    const big = await json<FraudRule>([
      'fraud',
      'rules',
      'create',
      game,
      '--name',
      'Big purchase',
      '--action',
      'flag',
      '--field',
      'data.amount',
      '--operator',
      'gt',
      '--value',
      '500',
      '--priority',
      '900',
      '--cooldown',
      '60',
    ])
    expect(big).toMatchObject({ value: 500, priority: 900, cooldownMinutes: 60, enabled: true })
    const countries = await json<FraudRule>([
      'fraud',
      'rules',
      'create',
      game,
      '--name',
      'Countries',
      '--action',
      'log',
      '--field',
      'country',
      '--operator',
      'in',
      '--value',
      'KP,IR',
      '--disabled',
    ])
    expect(countries).toMatchObject({ value: ['KP', 'IR'], enabled: false })
    const text = await json<FraudRule>([
      'fraud',
      'rules',
      'create',
      game,
      '--name',
      'Level text',
      '--action',
      'log',
      '--field',
      'data.level',
      '--operator',
      'eq',
      '--value',
      '"42"',
    ])
    expect(text.value).toBe('42')

    const up = await json<FraudRule>(['fraud', 'rules', 'update', game, 'Big purchase', '--value', '1000'])
    expect(up).toMatchObject({ id: big.id, value: 1000 })
    expect((await json<FraudRule>(['fraud', 'rules', 'disable', game, 'Block Bot Traffic'])).enabled).toBe(
      false,
    )
    expect((await json<FraudRule>(['fraud', 'rules', 'enable', game, 'Block Bot Traffic'])).enabled).toBe(
      true,
    )
    // The daemon's 400 names the field.
    const bad = await cli(['fraud', 'rules', 'update', game, big.id, '--field', 'event_type'], { env })
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toMatch(/gt does not apply to the text field event_type/)
    expect(
      (await cli(['fraud', 'rules', 'update', game, 'No such rule', '--value', '1'], { env })).code,
    ).toBe(2)
    expect((await cli(['fraud', 'rules', 'create', game, '--name', 'x'], { env })).code).toBe(2)
    expect(
      (
        await cli(
          [
            'fraud',
            'rules',
            'create',
            game,
            '--name',
            'x',
            '--action',
            'flag',
            '--field',
            'risk',
            '--operator',
            'gt',
            '--value',
            '1',
            '--priority',
            '0',
          ],
          { env },
        )
      ).code,
    ).toBe(2)
  })

  it('delete asks for confirmation (refused without a terminal unless --yes)', async () => {
    const r = await json<FraudRule>([
      'fraud',
      'rules',
      'create',
      game,
      '--name',
      'Temp',
      '--action',
      'log',
      '--field',
      'risk',
      '--operator',
      'gte',
      '--value',
      '0.5',
    ])
    expect((await cli(['fraud', 'rules', 'delete', game, r.id], { env })).code).toBe(2)
    const deleted = await cli(['fraud', 'rules', 'delete', game, 'Temp', '--yes'], { env })
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.stderr).toContain(`Deleted rule ${r.id}`)
    expect(
      (await json<PageOf<FraudRule>>(['fraud', 'rules', 'list', game])).data.map((x) => x.id),
    ).not.toContain(r.id)
  })
})

describe('linkctl fraud blocklist', () => {
  it('add (IP by default, normalized; device with --type), list, remove with confirmation', async () => {
    const ip = await json<BlocklistEntry>([
      'fraud',
      'blocklist',
      'add',
      game,
      '::ffff:198.51.100.3',
      '--reason',
      'farm',
    ])
    expect(ip).toMatchObject({ type: 'ip', value: '198.51.100.3', reason: 'farm' })
    const dev = await json<BlocklistEntry>(['fraud', 'blocklist', 'add', game, 'fp-abc', '--type', 'device'])
    expect(dev.type).toBe('device')
    expect((await cli(['fraud', 'blocklist', 'add', game, '198.51.100.3'], { env })).code).not.toBe(0)
    expect((await cli(['fraud', 'blocklist', 'add', game, 'not-an-ip'], { env })).stderr).toMatch(
      /IPv4 or IPv6/,
    )

    const list = await cli(['fraud', 'blocklist', 'list', game], { env })
    expect(list.stdout.split('\n')[0]).toBe('ID\tTYPE\tVALUE\tREASON\tADDED\tEXPIRES')
    expect(list.stdout).toContain(`${ip.id}\tip\t198.51.100.3\tfarm\t`)
    expect((await json<PageOf<BlocklistEntry>>(['fraud', 'blocklist', 'list', game])).total).toBe(2)

    const declining = decliningCtx(d.url, d.ownerKey)
    await expect(runFraudBlocklistRemove({ game, id: ip.id }, declining.ctx)).rejects.toThrow('aborted')
    expect(declining.questions[0]).toContain(ip.id)
    expect((await cli(['fraud', 'blocklist', 'remove', game, ip.id], { env })).code).toBe(2)
    expect((await cli(['fraud', 'blocklist', 'remove', game, ip.id, '--yes'], { env })).code).toBe(0)
    expect((await json<PageOf<BlocklistEntry>>(['fraud', 'blocklist', 'list', game])).total).toBe(1)
  })

  it('a game with fraud off is a clear error', async () => {
    const off = (await createGame(d.testApp, { name: 'No fraud' })).id
    const r = await cli(['fraud', 'rules', 'list', off], { env })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/fraud detection is off/)
    const advice = /turn it on with (linkctl games update \S+ --fraud) /.exec(r.stderr)
    expect(advice?.[1], r.stderr).toBe(`linkctl games update ${off} --fraud`)
    expect((await cli(advice![1]!.split(' ').slice(1), { env })).code).toBe(0)
    expect((await cli(['fraud', 'rules', 'list', off], { env })).code).toBe(0)
  })
})

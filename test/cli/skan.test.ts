/** linkctl skan against the real daemon (loopback), through the whole CLI; schema edit with a scripted EDITOR. */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../src/contract/common.js'
import type { CampaignWithReport, SkanCampaign, SkanPostback } from '../../src/contract/skan.js'
import { runSkanSchemaEdit } from '../../src/cli/commands/skan/schema/edit.js'
import { createGame } from '../support/gaming.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli, tempDir, testCtx } from '../support/cli.js'
import { APPLE_VECTOR, postback40 } from '../support/skan.js'

let d: TestDaemon
let env: NodeJS.ProcessEnv
let game: string
const work = tempDir('linkctl-skan-')
beforeAll(async () => {
  d = await startTestDaemon()
  env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
  game = (await createGame(d.testApp, { name: 'SKAN CLI', modules: { skan: true } })).id
})
afterAll(async () => {
  await d.close()
  work.remove()
})

const json = async <T>(argv: string[], extra: NodeJS.ProcessEnv = {}): Promise<T> => {
  const r = await cli([...argv, '--json'], { env: { ...env, ...extra } })
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as T
}
const create = (name: string, adNetwork = 'cli.skadnetwork') =>
  json<SkanCampaign>([
    'skan',
    'campaigns',
    'create',
    game,
    '--name',
    name,
    '--ad-network',
    adNetwork,
    '--lock-window',
    '24',
  ])
const schemaOf = async (id: string) =>
  (await d.testApp.call('GET', `/api/v1/skan/campaigns/${id}`)).json<CampaignWithReport>().conversionSchema

/** An EDITOR that writes edit-1.json, then edit-2.json, … into the file it is given. */
function scriptedEditor(edits: unknown[]): NodeJS.ProcessEnv {
  const dir = join(work.dir, `editor-${Math.random().toString(36).slice(2)}`)
  mkdirSync(dir)
  edits.forEach((e, i) =>
    writeFileSync(join(dir, `edit-${i + 1}.json`), typeof e === 'string' ? e : JSON.stringify(e)),
  )
  const script = join(dir, 'editor.sh')
  writeFileSync(
    script,
    '#!/bin/sh\nn=$(cat "$EDIT_DIR/count" 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > "$EDIT_DIR/count"\ncp "$EDIT_DIR/edit-$n.json" "$1"\n',
  )
  chmodSync(script, 0o755)
  return { EDITOR: script, EDIT_DIR: dir }
}

describe('linkctl skan campaigns', () => {
  it('create (with a schema file), list, update, show', async () => {
    const schemaFile = join(work.dir, 'schema.json')
    writeFileSync(schemaFile, JSON.stringify({ events: { tutorial: 1, purchase: 4 } }))
    const c = await json<SkanCampaign>(
      ['skan', 'campaigns', 'create', game, '--name', 'Spring', '--ad-network', 'spring.skadnetwork'].concat([
        '--lock-window',
        '12',
        '--source-id',
        '39',
        '--schema',
        schemaFile,
      ]),
    )
    expect(c).toMatchObject({
      name: 'Spring',
      sourceIdentifier: '39',
      lockWindowHours: 12,
      conversionSchema: { events: { tutorial: 1, purchase: 4 }, lockWindow: 12 },
    })

    const list = await cli(['skan', 'campaigns', 'list', game], { env })
    expect(list.code, list.stderr).toBe(0)
    const lines = list.stdout.trim().split('\n')
    expect(lines[0]).toBe('ID\tNAME\tAD NETWORK\tSOURCE\tLOCK\tEVENTS\tCREATED')
    expect(lines.find((l) => l.startsWith(c.id))).toMatch(
      /\tSpring\tspring\.skadnetwork\t39\t12 h\ttutorial=1,purchase=4\t/,
    )

    const updated = await json<SkanCampaign>([
      'skan',
      'campaigns',
      'update',
      c.id,
      '--name',
      'Summer',
      '--source-id',
      '',
    ])
    expect(updated.name).toBe('Summer')
    expect(updated.sourceIdentifier).toBeUndefined()

    const show = await cli(['skan', 'campaigns', 'show', c.id], {
      env: { ...env, NO_COLOR: '1' },
      isTTY: true,
    })
    expect(show.code, show.stderr).toBe(0)
    expect(show.stdout).toMatch(/NAME\s+Summer/)
    expect(show.stdout).toMatch(/POSTBACKS\s+0 \(0 verified, 0%\)/)
    expect(show.stdout).toMatch(/DAYS 0-2\s+0 verified of 0/)
  })

  it('a campaign the API refuses says which field; a missing required flag is a usage error', async () => {
    const bad = await cli(
      ['skan', 'campaigns', 'create', game, '--name', 'x', '--ad-network', 'Bad', '--lock-window', '5'],
      { env },
    )
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe(
      'error: --ad-network must be <name>.skadnetwork in lower case, such as abc123.skadnetwork (HTTP 400)\n',
    )
    const create = (...extra: string[]) =>
      cli(['skan', 'campaigns', 'create', game, '--name', 'x', '--ad-network', 'a.skadnetwork', ...extra], {
        env,
      })
    const source = await create('--lock-window', '5', '--source-id', '12345', '--affiliate', 'a'.repeat(201))
    expect(source.stderr).toMatch(/^error: --affiliate must be at most 200 characters \(and 1 more\)/)
    expect(source.stderr).toContain('--source-id: must be 2 to 4 digits, such as 39')
    const usage = await create()
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/--lock-window/)
    const range = await create('--lock-window', '73')
    expect(range.code).toBe(2)
  })
})

describe('a game with SKAN off', () => {
  it('the refusal names the linkctl command that turns it on, and that command works', async () => {
    const off = (await createGame(d.testApp, { name: 'SKAN off' })).id
    const r = await cli(['skan', 'campaigns', 'list', off], { env })
    expect(r.code).toBe(6)
    const advice = /turn it on with (linkctl games update \S+ --skan) /.exec(r.stderr)
    expect(advice?.[1], r.stderr).toBe(`linkctl games update ${off} --skan`)
    const on = await cli(advice![1]!.split(' ').slice(1), { env })
    expect(on.code, on.stderr).toBe(0)
    expect((await cli(['skan', 'campaigns', 'list', off], { env })).code).toBe(0)
  })
})

describe('linkctl skan postbacks', () => {
  it("lists a campaign's postbacks, newest first", async () => {
    const c = await create('Postbacks', 'pb.skadnetwork')
    for (const p of [
      postback40({ 'ad-network-id': 'pb.skadnetwork', 'conversion-value': 4 }),
      APPLE_VECTOR,
    ]) {
      await fetch(`${d.url}/api/v1/skan/postbacks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...p, 'ad-network-id': 'pb.skadnetwork' }),
      })
      d.clock.advance(1000)
    }
    const r = await cli(['skan', 'postbacks', c.id], { env })
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toBe('ID\tRECEIVED\tVERSION\tVERIFIED\tDAYS\tWIN\tFINE\tCOARSE\tEVENTS\tTRANSACTION')
    expect(lines).toHaveLength(3)
    // The Apple vector under another ad network id no longer verifies.
    expect(lines[1]).toMatch(/\t4\.0\tno\t0-2\tyes\t-\thigh\t-\t6aafb7a5-/)
    expect(lines[2]).toMatch(/\t4\.0\tno\t0-2\tyes\t4\tlow\t-\t/)
    const page = await json<PageOf<SkanPostback>>(['skan', 'postbacks', c.id, '--limit', '10'])
    expect(page.total).toBe(2)
  })
})

describe('linkctl skan schema edit', () => {
  it('saves what the editor wrote; an unchanged file saves nothing', async () => {
    const c = await create('Edit')
    const next = { events: { install: 1, purchase: 2 }, decodedRevenue: { coarse: { high: 9.99 } } }
    const saved = await json<SkanCampaign>(['skan', 'schema', 'edit', c.id], scriptedEditor([next]))
    expect(saved.conversionSchema).toMatchObject(next)
    expect(await schemaOf(c.id)).toMatchObject(next)

    const unchanged = await cli(['skan', 'schema', 'edit', c.id], { env: { ...env, EDITOR: 'true' } })
    expect(unchanged.code, unchanged.stderr).toBe(0)
    expect(unchanged.stderr).toMatch(/No changes/)
  })

  it('without a terminal, a refused schema is said and nothing is saved', async () => {
    const c = await create('Refused')
    const r = await cli(['skan', 'schema', 'edit', c.id], {
      env: { ...env, ...scriptedEditor([{ events: { a: 3 } }]) },
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/the schema was not saved: .*conversionSchema\.events\.a.*power of two/)
    expect((await schemaOf(c.id)).events).toEqual({})
  })

  it('on a terminal, the error is shown and the editor opens again when the user agrees', async () => {
    const c = await create('Retry')
    const questions: string[] = []
    const t = testCtx({
      flags: { url: d.url, apiKey: d.ownerKey },
      env: scriptedEditor(['{ not json', { events: { a: 8, b: 8 } }, { events: { a: 8, b: 16 } }]),
      canPrompt: true,
      prompt: {
        secret: () => Promise.resolve(''),
        confirm: (q) => (questions.push(q), Promise.resolve(true)),
      },
    })
    await runSkanSchemaEdit({ campaign: c.id }, t.ctx)
    expect(questions).toEqual(['Edit the schema again?', 'Edit the schema again?'])
    expect(t.err.text).toMatch(/^error: the schema is not JSON/m)
    expect(t.err.text).toMatch(/^error: .*conversionSchema\.events\.b.*shares its bit \(8\) with event a/m)
    expect((await schemaOf(c.id)).events).toEqual({ a: 8, b: 16 })
  })

  it('declining the retry saves nothing', async () => {
    const c = await create('Decline')
    const t = testCtx({
      flags: { url: d.url, apiKey: d.ownerKey },
      env: scriptedEditor([{ events: { a: 5 } }]),
      canPrompt: true,
      prompt: { secret: () => Promise.resolve(''), confirm: () => Promise.resolve(false) },
    })
    await expect(runSkanSchemaEdit({ campaign: c.id }, t.ctx)).rejects.toThrow(/aborted/)
    expect((await schemaOf(c.id)).events).toEqual({})
  })
})

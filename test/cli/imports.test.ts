/**
 * What linkctl loads: only src/tui may import ink or react, and src/tui is reached only by a
 * dynamic import (the `tui` command loads it when it runs), and the start-up path (everything loaded statically before a
 * command runs) may use only commander and node builtins, so that the client, conf and typebox
 * load inside the actions that need them.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../src/version.js'

interface Edge {
  from: string
  specifier: string
  dynamic: boolean
}

const IMPORT_RE =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

/** Import edges of one TypeScript file; type-only imports are left out (tsc erases them). */
function edges(file: string): Edge[] {
  const src = readFileSync(file, 'utf8')
  const out: Edge[] = []
  for (const m of src.matchAll(IMPORT_RE)) {
    if (m[4]) {
      if (m[2]) continue
      const names = /\{([^}]*)\}/.exec(m[3] ?? '')?.[1]
      const onlyTypes =
        names !== undefined &&
        !/^[\s\w$]+,/.test(m[3] ?? '') &&
        names
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .every((s) => s.startsWith('type '))
      if (!onlyTypes) out.push({ from: file, specifier: m[4], dynamic: false })
    } else if (m[5]) out.push({ from: file, specifier: m[5], dynamic: false })
    else if (m[6]) out.push({ from: file, specifier: m[6], dynamic: true })
  }
  return out
}

function resolveTs(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''))
  const target = [`${base}.ts`, `${base}.tsx`].find((f) => existsSync(f))
  if (!target) throw new Error(`cannot resolve ${specifier} from ${from}`)
  return target
}

/** Files and bare specifiers reachable from `entries`, following dynamic imports or not. */
function reach(entries: string[], followDynamic: boolean) {
  const files = new Set<string>()
  const packages = new Map<string, string>()
  const queue = [...entries]
  for (let file = queue.shift(); file; file = queue.shift()) {
    if (files.has(file)) continue
    files.add(file)
    for (const e of edges(file)) {
      if (e.dynamic && !followDynamic) continue
      if (e.specifier.startsWith('.')) queue.push(resolveTs(file, e.specifier))
      else packages.set(e.specifier, relative(packageRoot(), e.from))
    }
  }
  return { files: [...files].map((f) => relative(packageRoot(), f)), packages }
}

const cli = (p: string) => join(packageRoot(), 'src/cli', p)
const pkgName = (s: string) =>
  s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] ?? s)

describe('modules reachable from linkctl', () => {
  it('the scanner sees static, dynamic and type-only imports correctly', () => {
    const e = edges(join(packageRoot(), 'src/session/context.ts'))
    expect(e).toContainEqual(expect.objectContaining({ specifier: './exit-codes.js', dynamic: false }))
    expect(e).toContainEqual(expect.objectContaining({ specifier: '../client/index.js', dynamic: true }))
    expect(e.map((x) => x.specifier)).not.toContain('commander')
  })

  it('import ink or react only in src/tui, which only a dynamic import reaches', () => {
    const all = reach([cli('main.ts')], true)
    expect(all.files).toContain('src/cli/commands/keys/index.ts')
    expect(all.files).toContain('src/tui/app.tsx')
    const ui = [...all.packages].filter(([p]) => /^(ink|react|@inkjs\/|ink-|react-)/.test(pkgName(p)))
    expect(ui.length).toBeGreaterThan(0)
    for (const [, importer] of ui) expect(importer).toMatch(/^src\/tui\//)
    // Outside src/tui, only the tui command's own dynamic import leads into it.
    const intoTui = all.files
      .filter((f) => !f.startsWith('src/tui/'))
      .flatMap((f) => edges(join(packageRoot(), f)).filter((e) => e.specifier.includes('/tui/')))
    expect(intoTui.map((e) => [relative(packageRoot(), e.from), e.dynamic])).toEqual([
      ['src/cli/commands/tui.ts', true],
    ])
  })

  it('the TUI imports nothing of the CLI: what both need is in src/session and src/format', () => {
    const all = reach([cli('main.ts')], true)
    const intoCli = all.files
      .filter((f) => f.startsWith('src/tui/'))
      .flatMap((f) => edges(join(packageRoot(), f)).filter((e) => e.specifier.includes('/cli/')))
      .map((e) => [relative(packageRoot(), e.from), e.specifier])
    expect(intoCli).toEqual([])
  })

  it('start-up loads only commander, node builtins and light contract modules', () => {
    const startup = reach([cli('main.ts'), cli('run.ts')], false)
    const packages = [...startup.packages.keys()].filter((p) => !p.startsWith('node:'))
    expect(packages).toEqual(['commander'])
    const contract = startup.files.filter((f) => f.startsWith('src/contract/')).sort()
    expect(contract).toEqual([
      'src/contract/blocked-ports.ts',
      'src/contract/csv.ts',
      'src/contract/fraud-limits.ts',
      'src/contract/limits.ts',
      'src/contract/numbers.ts',
      'src/contract/raw-columns.ts',
      'src/contract/scopes.ts',
      'src/contract/skan-limits.ts',
      'src/contract/uri.ts',
    ])
    expect(startup.files).not.toContain('src/client/index.ts')
  })

  it("the heavy packages are used lazily, and the HTTP client is Node's own fetch", () => {
    const lazy = [...reach([cli('main.ts')], true).packages.keys()]
    expect(lazy).toContain('conf')
    // The undici package costs ~100 ms to load; Node's built-in fetch does the job.
    expect(lazy).not.toContain('undici')
  })
})

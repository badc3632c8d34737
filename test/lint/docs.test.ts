/**
 * The docs a newcomer reads: every relative link and anchor in README.md, CHANGELOG.md and docs/
 * resolves, every file a code comment names exists, every decision record is dated and listed in
 * the index, and README + docs/ stay within 150 KB of Markdown.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../src/version.js'

const root = packageRoot()
const DOCS_BUDGET = 150 * 1024

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter(keep)
}

const docsPages = () => ['README.md', ...filesUnder('docs', (p) => p.endsWith('.md'))]

/** Markdown without its code: fenced blocks and inline code hold examples, not links. */
const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '')

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const [, heading] of withoutCode(text.replace(/`/g, '')).matchAll(/^#{1,6} +(.+)$/gm)) {
    const base = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n === 0 ? base : `${base}-${n}`)
  }
  return out
}

/** The relative links of `text` (the page at `file`) whose file or anchor does not exist. */
function brokenLinks(file: string, text: string, read = (p: string) => readFileSync(p, 'utf8')): string[] {
  const broken: string[] = []
  for (const [, target] of withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!)) continue
    const [path = '', anchor] = target!.split('#')
    const to = path ? resolve(root, dirname(file), path) : join(root, file)
    if (!existsSync(to)) broken.push(target!)
    else if (anchor && statSync(to).isFile() && to.endsWith('.md') && !anchors(read(to)).has(anchor))
      broken.push(target!)
  }
  return broken
}

describe('docs', () => {
  it('every relative link and anchor resolves', () => {
    for (const file of [...docsPages(), 'CHANGELOG.md'])
      expect(brokenLinks(file, readFileSync(join(root, file), 'utf8')), file).toEqual([])
  })

  it('the link check finds a planted missing file and a planted missing anchor', () => {
    const page = 'See [ops](operations.md#durability), [gone](decisions/gone.md), [x](operations.md#nope).'
    expect(brokenLinks('docs/operations.md', page)).toEqual(['decisions/gone.md', 'operations.md#nope'])
    expect(anchors('# Running `linkd`: a (test)\n## A b\n## A b')).toEqual(
      new Set(['running-linkd-a-test', 'a-b', 'a-b-1']),
    )
  })

  it('every docs/ file a code or test comment names exists', () => {
    const code = [
      ...['daemon', 'src', 'sdk', 'bin', '.ci'].flatMap((d) => filesUnder(d, () => true)),
      ...filesUnder('test', (p) => !p.startsWith('test/fixtures/')),
      'vitest.config.ts',
    ]
    const missing = code.flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/(?<![\w/.-])docs\/[\w/.-]+\.md/g)]
        .map((m) => m[0])
        .filter((doc) => !existsSync(join(root, doc)))
        .map((doc) => `${file}: ${doc}`),
    )
    expect(missing).toEqual([])
  })

  it('every decision record is dated in its title and listed in the index, and only those', () => {
    const records = filesUnder('docs/decisions', (p) => p.endsWith('.md') && !p.endsWith('/README.md'))
    const index = readFileSync(join(root, 'docs/decisions/README.md'), 'utf8')
    const listed = [...index.matchAll(/\]\(([\w-]+\.md)\)/g)].map((m) => `docs/decisions/${m[1]}`)
    expect(listed.sort()).toEqual(records.sort())
    for (const record of records)
      expect(readFileSync(join(root, record), 'utf8').split('\n')[0], record).toMatch(
        /^# .+ \(\d{4}-\d{2}-\d{2}\)$/,
      )
  })

  it(`README.md and docs/ hold at most ${DOCS_BUDGET / 1024} KB of Markdown`, () => {
    const bytes = docsPages().reduce((sum, file) => sum + statSync(join(root, file)).size, 0)
    expect(bytes).toBeLessThanOrEqual(DOCS_BUDGET)
  })
})

/** The examples of the docs (docs/deployment.md unless told), read from the page so that tests check what readers copy. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { root } from './processes.js'

/** The code blocks of a docs page fenced as `language`, in page order. */
export function fences(language: string, path = 'docs/deployment.md'): string[] {
  const page = readFileSync(join(root, path), 'utf8')
  return [...page.matchAll(new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]!)
}

/** Replaces each `from` by its `to`; a `from` the text no longer contains fails the test. */
export function substitute(text: string, replacements: ReadonlyArray<readonly [RegExp, string]>): string {
  return replacements.reduce((result, [from, to]) => {
    expect(result, `docs/deployment.md no longer has ${from.source}`).toMatch(from)
    return result.replace(new RegExp(from.source, 'g'), to)
  }, text)
}

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { EXIT_CODE_TABLE } from '../../src/session/exit-codes.js'
import { CLI_REFERENCE, renderCliReference } from '../support/cli-reference.js'

const page = () => readFileSync(CLI_REFERENCE, 'utf8')

describe('docs/reference/cli.md', () => {
  it('is what the command tree and the exit-code table generate', () => {
    // If this fails, regenerate with: npm run docs:cli
    expect(page(), 'docs/reference/cli.md is stale: run npm run docs:cli').toBe(
      renderCliReference(page(), buildProgram()),
    )
  })

  it('lists every command with its arguments and aliases, and every exit code', () => {
    const text = page()
    expect(text).toContain('- `create [url]`: create a short link and print its short URL')
    expect(text).toContain('- `list` (`ls`): list API keys')
    expect(text).toContain('- `members` (`list`, `ls`): ')
    expect(text).toContain('newest first (who, what, when; needs `team:read`)')
    expect(text).toContain('- `rules list <game>` (`ls`): ')
    expect(text).toContain('### smart-links (`sl`)\n')
    for (const { code, meaning } of EXIT_CODE_TABLE) expect(text).toContain(`- \`${code}\`: ${meaning}\n`)
  })

  it('a planted change makes the page stale; the hand-written prose is kept', () => {
    const program = buildProgram()
    program.command('frobnicate').alias('frob').description('test only, with --level and LINKCTL_FROB')
    const planted = page().replace('## Exit codes', 'A hand-written line.\n\n## Exit codes')
    const rendered = renderCliReference(planted, program)
    expect(rendered).not.toBe(planted)
    expect(rendered).toContain('- `frobnicate` (`frob`): test only, with `--level` and `LINKCTL_FROB`')
    expect(rendered).toContain('A hand-written line.\n\n## Exit codes')
    // An edit inside a generated block is undone, so the staleness test catches it.
    const edited = page().replace('list API keys', 'list the API keys')
    expect(edited).not.toBe(page())
    expect(renderCliReference(edited, buildProgram())).toBe(page())
  })

  it('a page without the markers of a block is refused', () => {
    const without = page().replace('<!-- generated: exit-codes -->', '')
    expect(() => renderCliReference(without, buildProgram())).toThrow(/"exit-codes" block/)
  })
})

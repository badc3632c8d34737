/**
 * The lint rule that keeps the TUI beside the CLI (eslint.config.js): src/tui imports nothing
 * under src/cli, src/cli nothing under src/tui but by the tui command's dynamic import.
 */
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../src/version.js'

const eslint = new ESLint({ cwd: packageRoot() })

/** The import-rule messages ESLint reports for `code` as if it were the file `filePath`. */
async function importErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

const fromCli = "import { createContext } from '../cli/context.js'\nexport const make = createContext\n"
const fromTui = "import { runTui } from '../tui/run.js'\nexport const run = runTui\n"

describe('the TUI and the CLI stand side by side', () => {
  it('src/tui may not import src/cli', async () => {
    const errors = await importErrors(fromCli, 'src/tui/fixture.ts')
    expect(errors).toEqual([expect.stringContaining('Only src/cli imports src/cli')])
  })

  it('the same import elsewhere passes', async () => {
    expect(await importErrors(fromCli, 'src/fixture.ts')).toEqual([])
  })

  it('src/cli may not import src/tui statically', async () => {
    const errors = await importErrors(fromTui, 'src/cli/fixture.ts')
    expect(errors).toEqual([expect.stringContaining('Only the tui command loads src/tui')])
  })

  it("the shared folders import neither, and the TUI's Text rule still holds", async () => {
    expect(await importErrors(fromCli, 'src/session/fixture.ts')).toHaveLength(1)
    expect(await importErrors(fromTui, 'src/format/fixture.ts')).toHaveLength(1)
    const ink = "import { Text } from 'ink'\nexport const T = Text\n"
    expect(await importErrors(ink, 'src/tui/screens/fixture.tsx')).toEqual([
      expect.stringContaining('Import Text from src/tui/components/text.tsx'),
    ])
  })
})

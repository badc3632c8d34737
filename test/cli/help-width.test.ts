/** Every command's --help fits an 80-column terminal: commander wraps descriptions, here too. */
import { describe, expect, it } from 'vitest'
import type { Command } from 'commander'
import { buildProgram } from '../../src/cli/program.js'

describe('linkctl --help', () => {
  it('no line of any command or group help, its closing text included, is wider than 80 columns', () => {
    const wide: string[] = []
    const walk = (c: Command, path: string) => {
      let text = ''
      c.configureOutput({ writeOut: (s) => (text += s) })
      c.outputHelp()
      // Only a word longer than the column may pass it (an example to copy keeps its line).
      for (const line of text.split('\n'))
        if (line.length > 80 && /\s/.test(line.trim())) wide.push(`${path}: ${line}`)
      for (const s of c.commands) walk(s, `${path} ${s.name()}`)
    }
    walk(buildProgram(), 'linkctl')
    expect(wide).toEqual([])
  })
})

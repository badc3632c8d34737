/**
 * `npm run docs:cli`: rewrites the generated blocks of docs/reference/cli.md, each between
 * `<!-- generated: NAME -->` and `<!-- end generated: NAME -->`: the command list from the
 * commander tree (the model the shell completions are made from) and the exit codes from the table
 * behind `linkctl help exit-codes`. The prose around the blocks is written by hand and kept as it
 * is. test/cli/reference-doc.test.ts fails when the page is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Command } from 'commander'
import { rootAndGlobals, walk, type CmdSpec } from '../../src/cli/completion/model.js'
import { buildProgram } from '../../src/cli/program.js'
import { EXIT_CODE_TABLE } from '../../src/session/exit-codes.js'
import { packageRoot } from '../../src/version.js'

export const CLI_REFERENCE = join(packageRoot(), 'docs/reference/cli.md')

const CODE =
  /(--?[a-z][a-z0-9-]*|[a-z][a-zA-Z]*:(?:read|write|delete)|\$[A-Z][A-Z_]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z]+_)(?=[\s),;:]|$)/

/** A description as Markdown: flags, variables, scopes and id prefixes as code, the rest escaped. */
function prose(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .split(new RegExp(`(?<=^|[\\s(])${CODE.source}`))
    .map((part, i) => (i % 2 === 1 ? `\`${part}\`` : part.replace(/[\\*_<>[\]`]/g, (c) => `\\${c}`)))
    .join('')
}

const aliases = (cmd: CmdSpec) =>
  cmd.names.length > 1
    ? ` (${cmd.names
        .slice(1)
        .map((a) => `\`${a}\``)
        .join(', ')})`
    : ''

function item(cmd: CmdSpec, path: string): string {
  const name = [path, cmd.usage].filter(Boolean).join(' ')
  return `- \`${name}\`${aliases(cmd)}: ${prose(cmd.description)}`
}

/** The verbs under a noun, sub-nouns' verbs included (`rules list`); commander's own `help` left out. */
function verbs(noun: CmdSpec): string[] {
  const lines: string[] = []
  walk(noun, (c) => {
    if (c === noun || c.children.length > 0 || c.names[0] === 'help') return
    lines.push(item(c, c.path.slice(noun.path.length + 1)))
  })
  return lines
}

function commandsBlock(program: Command): string {
  const { root } = rootAndGlobals(program)
  const leaves = root.children.filter((c) => c.children.length === 0)
  const nouns = root.children.filter((c) => c.children.length > 0)
  const sections = nouns.map((noun) => `### ${noun.names[0]}${aliases(noun)}\n\n${verbs(noun).join('\n')}`)
  return [leaves.map((c) => item(c, c.names[0] ?? '')).join('\n'), ...sections].join('\n\n')
}

function exitCodesBlock(): string {
  return EXIT_CODE_TABLE.map((r) => `- \`${r.code}\`: ${r.meaning}`).join('\n')
}

const BLOCKS: Record<string, (program: Command) => string> = {
  commands: commandsBlock,
  'exit-codes': exitCodesBlock,
}

/** The page with every generated block made again from `program`; a block's markers must be there. */
export function renderCliReference(page: string, program: Command): string {
  let out = page
  for (const [name, make] of Object.entries(BLOCKS)) {
    const begin = `<!-- generated: ${name} -->\n`
    const end = `<!-- end generated: ${name} -->`
    const from = out.indexOf(begin)
    const to = out.indexOf(end, from)
    if (from < 0 || to < 0) throw new Error(`docs/reference/cli.md lacks the markers of the "${name}" block`)
    out = `${out.slice(0, from + begin.length)}\n${make(program)}\n\n${out.slice(to)}`
  }
  return out
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const page = readFileSync(CLI_REFERENCE, 'utf8')
  writeFileSync(CLI_REFERENCE, renderCliReference(page, buildProgram()))
  process.stdout.write(`${CLI_REFERENCE}\n`)
}

/** fish completion script, generated from the commander tree. */
import type { Command } from 'commander'
import { firstLine, fishq, rootAndGlobals, sq, walk, type OptSpec } from './model.js'

export function fishCompletion(program: Command): string {
  const { root, globals } = rootAndGlobals(program)
  const descend: string[] = []
  const takes: string[] = globals.filter((o) => o.values).flatMap((o) => o.names.map((n) => fishq(`*|${n}`)))
  const lines: string[] = []
  const optLine = (o: OptSpec, at: string | null) => {
    const parts = ['complete -c linkctl']
    if (at !== null) parts.push(`-n ${fishq(`__linkctl_at ${sq(at)}`)}`)
    for (const n of o.names) parts.push(n.startsWith('--') ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`)
    if (o.values) {
      if (o.values[0] === '__files' || o.values[0] === '__dirs') parts.push('-r -F')
      else if (o.values.length) parts.push(`-x -a ${fishq(o.values.join(' '))}`)
      else parts.push('-x')
    }
    parts.push(`-d ${fishq(firstLine(o.description))}`)
    return parts.join(' ')
  }
  for (const g of globals) lines.push(optLine(g, null))
  walk(root, (c) => {
    for (const child of c.children) {
      descend.push(
        `        case ${child.names.map((n) => fishq(`${c.path}|${n}`)).join(' ')}\n            echo ${fishq(child.path)}`,
      )
      lines.push(
        `complete -c linkctl -n ${fishq(`__linkctl_at ${sq(c.path)}`)} -a ${fishq(child.names[0] ?? '')} -d ${fishq(firstLine(child.description))}`,
      )
    }
    // With a second argument (api <method> <path>), the first's words come only first.
    const atArgs = c.secondArgs ? `__linkctl_first ${sq(c.path)}` : `__linkctl_at ${sq(c.path)}`
    if (c.fileArgs) lines.push(`complete -c linkctl -n ${fishq(`__linkctl_at ${sq(c.path)}`)} -F`)
    if (c.args.length) lines.push(`complete -c linkctl -n ${fishq(atArgs)} -a ${fishq(c.args.join(' '))}`)
    for (const [first, words] of Object.entries(c.secondArgs ?? {})) {
      const firsts = [...new Set([first, first.toLowerCase()])].map(sq).join(' ')
      lines.push(
        `complete -c linkctl -n ${fishq(`__linkctl_second ${sq(c.path)} ${firsts}`)} -a ${fishq(words.join(' '))}`,
      )
    }
    const globalNames = new Set(globals.flatMap((g) => g.names))
    for (const o of c.options) {
      if (c !== root && o.names.every((n) => globalNames.has(n))) continue
      if (c === root && globals.includes(o)) continue
      lines.push(optLine(o, c.path))
      if (c !== root && o.values) takes.push(...o.names.map((n) => fishq(`${c.path}|${n}`)))
    }
  })
  return `# fish completion for linkctl. Generated from the command tree by \`linkctl completion fish\`; do not edit.
# Install: copy this file to ~/.config/fish/completions/linkctl.fish

function __linkctl_descend
    switch "$argv[1]|$argv[2]"
${descend.join('\n')}
    end
end

function __linkctl_takes_value
    switch "$argv[1]|$argv[2]"
        case ${takes.join(' ')}
            return 0
    end
    return 1
end

# The command path of the words before the cursor, then its arguments (one a line).
function __linkctl_path
    set -l p ''
    set -l args
    set -l skip 0
    for w in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if string match -q -- '-*' $w
            __linkctl_takes_value "$p" $w; and set skip 1
            continue
        end
        set -l next (__linkctl_descend "$p" $w)
        if test -n "$next"
            set p $next
            set args
        else
            set -a args $w
        end
    end
    printf '%s\n' $p $args
end

function __linkctl_at
    set -l p (__linkctl_path)
    test "$p[1]" = "$argv[1]"
end

# At command $argv[1], before its first argument.
function __linkctl_first
    set -l p (__linkctl_path)
    test "$p[1]" = "$argv[1]"; and test (count $p) = 1
end

# At command $argv[1], after one argument that is one of $argv[2..].
function __linkctl_second
    set -l p (__linkctl_path)
    test "$p[1]" = "$argv[1]"; and test (count $p) = 2; and contains -- $p[2] $argv[2..-1]
end

complete -c linkctl -f
${lines.join('\n')}
`
}

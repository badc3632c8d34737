/** zsh completion script, generated from the commander tree. */
import type { Command } from 'commander'
import { firstLine, optionsAt, rootAndGlobals, shCases, sq, walk } from './model.js'

export function zshCompletion(program: Command): string {
  const { root, globals } = rootAndGlobals(program)
  const shared = shCases(root, globals, (words) => `compadd -- ${words.map(sq).join(' ')}`)
  const esc = (s: string) => s.replace(/:/g, '\\:')
  const items: string[] = []
  const values: string[] = []
  walk(root, (c) => {
    const cmds = c.children.map((ch) => sq(`${esc(ch.names[0] ?? '')}:${firstLine(ch.description)}`))
    const aliases = c.children.flatMap((ch) => ch.names.slice(1))
    const opts = optionsAt(c, root, globals).flatMap((o) =>
      o.names.map((n) => sq(`${n}:${firstLine(o.description)}`)),
    )
    const lines = [`      opts=(${opts.join(' ')})`]
    if (cmds.length) lines.push(`      cmds=(${cmds.join(' ')})`)
    if (aliases.length || c.args.length)
      lines.push(`      extra=(${[...aliases, ...c.args].map(sq).join(' ')})`)
    items.push(`    ${sq(c.path)})\n${lines.join('\n')}\n      ;;`)
    for (const o of optionsAt(c, root, globals)) {
      if (!o.values) continue
      const action =
        o.values[0] === '__files'
          ? '_files'
          : o.values[0] === '__dirs'
            ? '_files -/'
            : o.values.length
              ? `compadd -- ${o.values.map(sq).join(' ')}`
              : ':'
      values.push(`    ${o.names.map((n) => sq(`${c.path}|${n}`)).join('|')}) ${action} ;;`)
    }
  })
  return `#compdef linkctl
# zsh completion for linkctl. Generated from the command tree by \`linkctl completion zsh\`; do not edit.
# Install: save it as _linkctl in a directory of $fpath, e.g. ~/.zfunc/_linkctl with, in ~/.zshrc:
#   fpath=(~/.zfunc $fpath); autoload -U compinit; compinit

${shared}

_linkctl_value() {
  case "$1|$2" in
${values.join('\n')}
  esac
}

_linkctl() {
  local cmdpath="" next w i first="" nargs=0
  local -a opts cmds extra
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    if [[ "$w" == -* ]]; then
      _linkctl_takes_value "$cmdpath" "$w" && ((i++))
      continue
    fi
    next="$(_linkctl_descend "$cmdpath" "$w")"
    if [[ -n "$next" ]]; then
      cmdpath="$next" first="" nargs=0
    else
      ((nargs++ == 0)) && first="$w"
    fi
  done
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}"
  if [[ "$prev" == -* ]] && _linkctl_takes_value "$cmdpath" "$prev"; then
    _linkctl_value "$cmdpath" "$prev"
    return
  fi
  case "$cmdpath" in
${items.join('\n')}
  esac
  if [[ "$cur" == -* ]]; then
    _describe -t options 'option' opts
  elif ((nargs > 0)) && _linkctl_has_second "$cmdpath"; then
    # The second argument's words follow the first (api GET: its paths); none after it.
    ((nargs == 1)) && _linkctl_second "$cmdpath" "$first"
  elif _linkctl_file_args "$cmdpath"; then
    _files
  else
    (( \${#cmds} )) && _describe -t commands 'command' cmds
    (( \${#extra} )) && compadd -- "\${extra[@]}"
  fi
}

_linkctl "$@"
`
}

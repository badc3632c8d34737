/** bash completion script, generated from the commander tree. */
import type { Command } from 'commander'
import { optionsAt, rootAndGlobals, shCases, sq, walk } from './model.js'

export function bashCompletion(program: Command): string {
  const { root, globals } = rootAndGlobals(program)
  const shared = shCases(root, globals, (words) => `echo ${sq(words.join(' '))}`)
  const words: string[] = []
  const opts: string[] = []
  const values: string[] = []
  walk(root, (c) => {
    const w = [...c.children.flatMap((ch) => ch.names), ...c.args]
    if (w.length) words.push(`    ${sq(c.path)}) echo ${sq(w.join(' '))} ;;`)
    opts.push(
      `    ${sq(c.path)}) echo ${sq(
        optionsAt(c, root, globals)
          .flatMap((o) => o.names)
          .join(' '),
      )} ;;`,
    )
    for (const o of optionsAt(c, root, globals)) {
      if (o.values && o.values.length)
        values.push(
          `    ${o.names.map((n) => sq(`${c.path}|${n}`)).join('|')}) echo ${sq(o.values.join(' '))} ;;`,
        )
    }
  })
  return `# bash completion for linkctl. Generated from the command tree by \`linkctl completion bash\`; do not edit.
# Install: source this file, or copy it to ~/.local/share/bash-completion/completions/linkctl

${shared}

_linkctl_words() {
  case "$1" in
${words.join('\n')}
  esac
}

_linkctl_options() {
  case "$1" in
${opts.join('\n')}
  esac
}

_linkctl_values() {
  case "$1|$2" in
${values.join('\n')}
  esac
}

# File (-f) or directory (-d) names, one a word, quoted and a directory with its / (filenames).
_linkctl_files() {
  local IFS=$'\\n'
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen "$1" -- "$cur"))
}

_linkctl() {
  local cur prev cmdpath="" next w i first="" nargs=0
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then _get_comp_words_by_ref -n : cur prev; fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
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
  COMPREPLY=()
  if [[ "$prev" == -* ]] && _linkctl_takes_value "$cmdpath" "$prev"; then
    local values
    values="$(_linkctl_values "$cmdpath" "$prev")"
    case "$values" in
      __files) _linkctl_files -f ;;
      __dirs) _linkctl_files -d ;;
      *) COMPREPLY=($(compgen -W "$values" -- "$cur")) ;;
    esac
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_linkctl_options "$cmdpath")" -- "$cur"))
  elif ((nargs > 0)) && _linkctl_has_second "$cmdpath"; then
    # The second argument's words follow the first (api GET: its paths); none after it.
    ((nargs == 1)) && COMPREPLY=($(compgen -W "$(_linkctl_second "$cmdpath" "$first")" -- "$cur"))
  elif _linkctl_file_args "$cmdpath"; then
    _linkctl_files -f
  else
    COMPREPLY=($(compgen -W "$(_linkctl_words "$cmdpath")" -- "$cur"))
  fi
  if declare -F __ltrim_colon_completions >/dev/null 2>&1; then __ltrim_colon_completions "$cur"; fi
}

complete -F _linkctl linkctl
`
}

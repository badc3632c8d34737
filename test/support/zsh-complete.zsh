# zsh -f zsh-complete.zsh DIR LINE...: what zsh offers when Tab is pressed at the end of each LINE,
# with DIR (holding _linkctl) in $fpath and compinit run, as a user's interactive zsh does. Prints
# one line per LINE: its matches, sorted, separated by spaces. The interactive zsh runs in a
# pseudo-terminal (zsh/zpty) so that zle and the completion system are live; a wrapper of compadd
# prints the words each call adds (those matching the word being completed).
zmodload zsh/zpty || exit 3
local dir=$1 line out
shift
zpty z zsh -f -i
zpty -w z "fpath=(${(q)dir} \$fpath); PS1=''; RPS1=''; unsetopt auto_list auto_menu"
zpty -w z "autoload -U compinit; compinit -u -d ${(q)dir}/.zcompdump"
zpty -w z 'compadd() { if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi;
  local -a m; builtin compadd -O m "$@"; (( $#m )) && print -rl -- "" "${(@)m/#/MATCH:}"; builtin compadd "$@"; }'
# Tab completes, then says it is done.
zpty -w z '_zc_tab() { zle complete-word; print -r -- "" $((6 * 7))-END; }; zle -N _zc_tab; bindkey "^I" _zc_tab'
for line in "$@"; do
  zpty -w -n z "$line"$'\t'
  zpty -r z out '*42-END*' || exit 4
  print -r -- ${(j: :)${(ou)${(M)${(f)out//$'\r'/}:#MATCH:*}#MATCH:}}
  # Ctrl-U empties the line for the next one.
  zpty -w -n z $'\C-u'
done
zpty -d z

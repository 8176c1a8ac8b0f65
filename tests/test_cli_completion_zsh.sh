#!/bin/bash
# The zsh completion kiln writes of itself (share/, `kiln help --completion zsh`): zsh parses it,
# compinit takes it for kiln, and an interactive zsh (on a pseudo-terminal, zsh/zpty) completing
# `kiln hash --algo sha3` lists the four SHA-3 names of FIPS 202, `kiln selftest --device=c` the CPU
# and the CUDA spellings, `kiln hash --` the options `kiln hash --help` lists. Skipped (77) without zsh.
# Usage: test_cli_completion_zsh.sh KILN DATA_DIR
source "$(dirname "$0")/cli_docs_util.sh"
command -v zsh > /dev/null || { echo "no zsh: skipped"; exit 77; }
dir=$SHARE/zsh/site-functions
expect_eq "$("$KILN" help --completion zsh | cksum)" "$(cksum < "$dir/_kiln")" "kiln help --completion zsh"
zsh -n "$dir/_kiln" && ok || bad "zsh cannot parse _kiln"
got=$(zsh -f -c "fpath=('$dir' \$fpath); autoload -Uz compinit; compinit -u -D -d '$T/zcompdump'; print \$_comps[kiln]")
expect_eq "$got" "_kiln" "compinit's function for kiln"

# listing LINE: what two TABs at the end of LINE list in an interactive zsh, one word a line
cat > "$T/complete.zsh" << 'ZSH'
zmodload zsh/zpty
dir=$1 line=$2 want=$3
zpty z zsh -f -i
zpty -w z "COLUMNS=1000; LINES=200; PS1='> '; fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -D -d ${dir:h:h}/zcompdump; unsetopt beep listambiguous; LISTMAX=0; zstyle ':completion:*' list-separator '#'; print READY"
out=
for ((i = 0; i < 100 && ${#out} < 100000; i++)); do
    zpty -r -t z chunk && out+=$chunk
    [[ $out == *READY*'> '* ]] && break
    sleep 0.1
done
zpty -w -n z "$line"$'\t\t'
out=
for ((i = 0; i < 100; i++)); do
    while zpty -r -t z chunk; do out+=$chunk; done
    [[ $out == *$want* ]] && break
    sleep 0.1
done
zpty -d z
print -r -- "$out"
ZSH
listing() {
    TERM=dumb zsh -f "$T/complete.zsh" "$dir" "$1" "$2" | tr -d '\r' | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' |
        tr ' \t' '\n\n' | grep -E "$3" | sort -u | tr '\n' ' '
}
expect_eq "$(listing "kiln hash --algo sha3" sha3-512 '^sha3-[0-9]+$')" "sha3-224 sha3-256 sha3-384 sha3-512 " \
    "zsh: kiln hash --algo sha3"
expect_eq "$(listing "kiln selftest --device=c" 'cuda:' '^(cpu|cuda|cuda:)$')" "cpu cuda cuda: " \
    "zsh: kiln selftest --device=c"
want=$(help_options hash | grep -- '^--' | tr '\n' ' ')
expect_eq "$(listing "kiln hash --" '--warn' '^--[a-z-]+$')" "$want" "zsh: kiln hash --"
finish

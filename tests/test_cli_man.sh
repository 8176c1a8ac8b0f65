#!/bin/bash
# The manual pages kiln writes of itself (share/, `kiln help --roff`): one per command `kiln --help`
# lists, plus kiln(1); each page's OPTIONS are exactly the options `kiln CMD --help` lists and its
# SYNOPSIS is the help's usage line; kiln-hash(1) describes every hash of FIPS 180-4, FIPS 202 and
# Keccak that kiln accepts. (test_cli_man_render.sh renders them.)
# Usage: test_cli_man.sh KILN DATA_DIR
source "$(dirname "$0")/cli_docs_util.sh"
man1=$SHARE/man/man1

# roff source to the text it sets: the escapes kiln help --roff writes
plain() { sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\e/\\/g'; }
# the tags of the OPTIONS section's paragraphs (.TP), one option a line
page_options() {
    awk '/^\.SH/ { on = ($2 == "OPTIONS") } on && tag { print; tag = 0 } on && $0 == ".TP" { tag = 1 }' "$1" |
        plain | sed 's/ .*//; s/,$//' > "$T/tags"
    # "-h, --help" names two
    awk '/^\.SH/ { on = ($2 == "OPTIONS") } on && tag { print; tag = 0 } on && $0 == ".TP" { tag = 1 }' "$1" |
        plain | sed -n 's/^[^ ]*, \([^ ]*\).*/\1/p' >> "$T/tags"
    sort "$T/tags"
}

commands=$(help_commands)
expect_eq "$(echo $commands)" "mine devices selftest bench tune pagerank merkle hash scrypt version help" "kiln --help's commands"
expect_eq "$("$KILN" help --commands | tr '\n' ' ')" "$(echo $commands) " "kiln help --commands"
want_pages=$( (echo kiln.1; for c in $commands; do echo "kiln-$c.1"; done) | sort)
expect_eq "$(cd "$man1" && ls | sort)" "$want_pages" "the pages"

for c in $commands; do
    page=$man1/kiln-$c.1
    [ -f "$page" ] || { bad "no page kiln-$c.1"; continue; }
    expect_eq "$(page_options "$page")" "$(help_options "$c")" "options of kiln-$c(1) against kiln $c --help"
    synopsis=$(sed -n '/^\.SH SYNOPSIS/{n;p}' "$page" | plain)
    expect_eq "usage: $synopsis" "$("$KILN" "$c" --help | head -1)" "SYNOPSIS of kiln-$c(1)"
    grep -q "^kiln\\\\-$c \\\\- " "$page" && ok || bad "kiln-$c(1) has no NAME line"
    grep -q '^\.BR kiln (1)$' "$page" && ok || bad "kiln-$c(1) does not point to kiln(1)"
    # cli/help/manual.c has a description of the command
    expect_eq "$(sed -n '/^\.SH DESCRIPTION/{n;p}' "$page" | cut -c1-3)" "$(sed -n '/^\.SH DESCRIPTION/{n;/^\./d;p}' "$page" | cut -c1-3)" \
        "kiln-$c(1)'s DESCRIPTION starts with text"
done

# kiln(1): every command, with its page
for c in $commands; do
    grep -q "^\.BR kiln\\\\-$c (1)" "$man1/kiln.1" && ok || bad "kiln(1) does not list kiln-$c(1)"
done
expect_eq "$(page_options "$man1/kiln.1" | tr '\n' ' ')" "--help --version -V -h " "options of kiln(1)"

# the algorithms of kiln-hash(1), each in bold with its description
for a in sha256 sha256d sha3-224 sha3-256 sha3-384 sha3-512 shake128 shake256 keccak224 keccak256 keccak384 keccak512; do
    n=$(plain < "$man1/kiln-hash.1" | awk -v a="$a" 'prev ~ /^\.TP [0-9]+n$/ && $0 == a { n++ } { prev = $0 } END { print n + 0 }')
    expect_eq "$n" 1 "kiln-hash(1) describes $a once"
done

# the page `kiln help --roff` prints is the one installed
expect_eq "$("$KILN" help --roff hash | cksum)" "$(cksum < "$man1/kiln-hash.1")" "kiln help --roff hash"
"$KILN" help --roff nosuch > /dev/null 2> "$T/err"
expect_eq "$?" 2 "kiln help --roff nosuch: exit status"
expect_eq "$(cat "$T/err")" "kiln help: unknown command 'nosuch' (see kiln --help)" "kiln help --roff nosuch: message"

# kiln help itself
expect_eq "$("$KILN" help)" "$("$KILN" --help)" "kiln help"
expect_eq "$("$KILN" help hash)" "$("$KILN" hash --help)" "kiln help hash"
"$KILN" help --completion fish > /dev/null 2> "$T/err"
expect_eq "$?:$(cat "$T/err")" "2:kiln help: bad --completion 'fish' (expected bash or zsh)" "kiln help --completion fish"
"$KILN" help --completion bash hash > /dev/null 2> "$T/err"
expect_eq "$?:$(cat "$T/err")" "2:kiln help: --completion takes no COMMAND" "kiln help --completion bash hash"
finish

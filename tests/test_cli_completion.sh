#!/bin/bash
# The bash completion kiln writes of itself (share/, `kiln help --completion bash`): bash loads it
# (complete -p kiln), and completing a command line, split into COMP_WORDS as bash splits it, offers
# the commands and the options that `kiln --help` and `kiln CMD --help` list, the algorithm names of
# FIPS 180-4 / FIPS 202 / Keccak (and the Merkle and bench names kiln documents), the device
# spellings, a table's choices and file names.
# Usage: test_cli_completion.sh KILN DATA_DIR
source "$(dirname "$0")/cli_docs_util.sh"
script=$SHARE/bash-completion/completions/kiln
expect_eq "$("$KILN" help --completion bash | cksum)" "$(cksum < "$script")" "kiln help --completion bash"

source "$script" || bad "bash cannot load $script"
expect_eq "$(complete -p kiln)" "complete -F _kiln kiln" "complete -p kiln"

# comp LINE: what completing at the end of LINE offers, sorted, blank-separated
comp() {
    local line=$1
    local -a w
    # as bash does with COMP_WORDBREAKS: '=' and ':' are words of their own
    read -ra w <<< "$(sed -E 's/([=:]+)/ \1 /g' <<< "$line")"
    [[ $line == *" " ]] && w+=("")
    COMP_WORDS=("${w[@]}")
    COMP_CWORD=$((${#w[@]} - 1))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    _kiln kiln "${w[COMP_CWORD]}" "${w[COMP_CWORD - 1]}"
    ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' '; }

# FIPS 202's four SHA-3 names, and FIPS 180-4's SHA-384, which starts with sha3 too
sha3="$(sorted sha3-224 sha3-256 sha3-384 sha3-512 sha384)"
expect_eq "$(comp "kiln hash --algo sha3")" "$sha3" "kiln hash --algo sha3"
expect_eq "$(comp "kiln hash --algo=sha3")" "$sha3" "kiln hash --algo=sha3"
# every name kiln hash takes, as its refusal of another lists them (the registry, not the completion)
accepted=$("$KILN" hash --algo nosuch /dev/null 2>&1 | sed 's/.*(expected //; s/)$//; s/ or /, /; s/,//g')
[[ $accepted == *sha256* ]] || bad "kiln hash --algo nosuch did not list the names: $accepted"
expect_eq "$(comp "kiln hash --algo ")" "$(sorted $accepted)" "kiln hash --algo"
expect_eq "$(comp "kiln merkle --algo ")" "$(sorted sha256d sha256 sha3-256 keccak256 rp64_256 blake2s blake2s-stwo blake3 poseidon2_babybear16 poseidon2_koalabear16 poseidon2_goldilocks8 rpo256 poseidon2_goldilocks12)" "kiln merkle --algo"
expect_eq "$(comp "kiln mine --algo ")" "scrypt sha256d " "kiln mine --algo"
expect_eq "$(comp "kiln bench --algo merkle-")" \
    "$(sorted merkle-sha256d merkle-sha256 merkle-sha3-256 merkle-keccak256 merkle-rp64 merkle-blake2s merkle-stwo merkle-blake3 merkle-poseidon2_babybear16 merkle-poseidon2_koalabear16 merkle-poseidon2_goldilocks8 merkle-rpo256 merkle-poseidon2_goldilocks12)" \
    "kiln bench --algo merkle-"
expect_eq "$(comp "kiln bench --algo al")" "all " "kiln bench --algo al"

# devices: auto, cpu, cuda, cuda:N, opencl, opencl:N (cuda: and opencl: are stems); tune takes GPUs only (a set too), CUDA or OpenCL
expect_eq "$(comp "kiln selftest --device c")" "cpu cuda cuda: " "kiln selftest --device c"
expect_eq "$(comp "kiln tune --device ")" "auto cuda cuda: cuda:all opencl opencl: opencl:all " "kiln tune --device"
expect_eq "$(comp "kiln mine --device ")" "auto cpu cuda cuda: cuda:all opencl opencl: opencl:all " "kiln mine --device (cuda: once)"
expect_eq "$(comp "kiln mine --device=a")" "auto " "kiln mine --device=a"
expect_eq "$(comp "kiln mine --device cuda:")" "$(sorted all)" "kiln mine --device cuda: (an index is typed, or all)"
expect_eq "$(comp "kiln mine --device=cuda:")" "$(sorted all)" "kiln mine --device=cuda:"
expect_eq "$(comp "kiln pagerank --format ")" "auto csr mtx snap " "kiln pagerank --format"
expect_eq "$(comp "kiln pagerank --precision f")" "float32 float64 " "kiln pagerank --precision"
expect_eq "$(comp "kiln scrypt -N ")" "" "kiln scrypt -N (a number)"

# the commands, and every command's options, as --help lists them
expect_eq "$(comp "kiln ")" "$(sorted $(help_commands) -h --help -V --version)" "kiln <TAB>"
expect_eq "$(comp "kiln pa")" "pagerank " "kiln pa"
for c in $(help_commands); do
    expect_eq "$(comp "kiln $c -")" "$(help_options "$c" | tr '\n' ' ')" "kiln $c -"
done
expect_eq "$(comp "kiln help ha")" "hash " "kiln help ha"
expect_eq "$(comp "kiln help --completion ")" "bash zsh " "kiln help --completion"

# file names: arguments and the options that name files
touch "$T/abc.txt" "$T/abd.txt"
expect_eq "$(comp "kiln hash $T/abc")" "$T/abc.txt " "kiln hash FILE"
expect_eq "$(comp "kiln pagerank --output=$T/abd")" "$T/abd.txt " "kiln pagerank --output=FILE"
expect_eq "$(comp "kiln merkle --leaves $T/ab")" "$T/abc.txt $T/abd.txt " "kiln merkle --leaves FILE"
finish

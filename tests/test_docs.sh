#!/usr/bin/env bash
# README.md is a front page: at most 200 lines, and each workload's section ("## Mining", ...)
# opens with its example (a fenced block within the section's first 3 lines); docs/PACKAGING.md's
# table of what scripts/setup-debian installs names exactly the packages the script installs.
# (Its table of the packages' Depends is checked against the packages by tests/install/check_deb.sh;
# the pages' examples and links by test_readme_examples.sh.)
# Usage: test_docs.sh KILN DATA_DIR
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
same() { if [ "$1" = "$2" ]; then ok; else bad "$3: got [$1] want [$2]"; fi; }

lines=$(wc -l <"$src/README.md")
if [ "$lines" -le 200 ]; then ok; else bad "README.md has $lines lines (at most 200)"; fi
for section in Mining Hashing scrypt "Merkle trees" PageRank; do
    at=$(awk -v h="## $section" '$0 == h { found = 1; next } found && /^```/ { print NR - start; exit }
                                 found && !start { start = NR - 1 }' "$src/README.md")
    if [ -n "$at" ] && [ "$at" -le 3 ]; then ok; else bad "README.md's \"## $section\" does not open with its example"; fi
done

# what the script installs: its pkgs array, read by bash itself
# shellcheck disable=SC2016 # expanded by the inner bash
script=$(bash -c 'eval "$(sed -n "/^pkgs=(/,/)\$/p; /^pkgs+=(/p" "$1")"; printf "%s\n" "${pkgs[@]}"' _ "$src/scripts/setup-debian" | sort)
table=$(awk '/<!-- setup-debian packages -->/ { f = 1; next } /<!-- end setup-debian packages -->/ { f = 0 }
             f && /^\| [a-z0-9]/ { split($0, c, "|"); print c[2] }' "$src/docs/PACKAGING.md" | tr ',' '\n' |
        sed -e 's/^ *//' -e 's/ *$//' | grep -v '^$' | sort)
[ "$(printf '%s\n' "$script" | wc -l)" -gt 10 ] && ok || bad "read no package list from scripts/setup-debian: $script"
same "$(comm -23 <(printf '%s\n' "$script") <(printf '%s\n' "$table") | paste -sd ' ')" "" \
    "packages scripts/setup-debian installs that docs/PACKAGING.md's table leaves out"
same "$(comm -13 <(printf '%s\n' "$script") <(printf '%s\n' "$table") | paste -sd ' ')" "" \
    "packages in docs/PACKAGING.md's table that scripts/setup-debian does not install"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

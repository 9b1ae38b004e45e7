#!/bin/sh
# SPDX-License-Identifier: MIT
# Which formats each command writes (issue 30): the contract below against the program. Every
# command is asked for every format --format knows; one it does not write is refused with a
# message that lists exactly its own, one it writes gets past the format check; --help and the
# man page list the same. The contract is written out here, not read from the program, so a
# command table that drifts from it fails.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# command|its formats, as the messages list them ('-': --format does not apply)
contract='run|text, json or csv
plan|text, json or csv
analyze|text, json or csv
predict|text, json or csv
compare|text, json or csv
plot|-
lint|text, json, sarif, plan or diff
export|json, gpgpusim or gem5'

"$CLBANKS" --format xml >"$TMP/out" 2>&1
all=$(sed -n "s/.*invalid value 'xml' for --format: expected //p" "$TMP/out" |
	sed 's/,/ /g; s/ or / /')
n=0
[ -n "$all" ] && ok "--format lists its values: $all" || notok "--format lists its values"

# "a, b or c" -> " a b c "
words() { printf ' %s ' "$1" | sed 's/,/ /g; s/ or / /; s/  */ /g'; }

echo "$contract" | {
while IFS='|' read -r cmd own; do
	for f in $all; do
		# An operand that every command refuses or cannot read, after the format check.
		"$CLBANKS" "$cmd" --format "$f" "$TMP/none.json" >"$TMP/out" 2>&1
		got=$?
		if [ "$own" = - ]; then
			if [ "$got" -eq 2 ] && grep -q "option '--format' does not apply to 'clbanks $cmd'" "$TMP/out"
			then ok "$cmd --format $f: not $cmd's option"
			else notok "$cmd --format $f: not $cmd's option (exit $got)"; fi
		elif case $(words "$own") in *" $f "*) true ;; *) false ;; esac; then
			if grep -Eq "writes|is [a-z]+'s|are [a-z]+'s" "$TMP/out"
			then notok "$cmd writes $f"
			else ok "$cmd writes $f"; fi
		else
			line=$(head -n 1 "$TMP/out")
			case $line in
			"clbanks: $cmd writes $own, not $f" | "clbanks: --format "*"; $cmd writes $own")
				[ "$got" -eq 2 ] && ok "$cmd --format $f: refused, lists $own" ||
					notok "$cmd --format $f: exit $got, not 2" ;;
			*) notok "$cmd --format $f: refused, lists exactly $own" ;;
			esac
		fi
	done
	[ "$own" = - ] && continue
	# --help of the command and the man page name the same formats.
	"$CLBANKS" "$cmd" --help >"$TMP/out" 2>&1
	if grep -Eq "^ +([a-z]+, )*$cmd(, [a-z]+)*: $own\$" "$TMP/out"
	then ok "$cmd --help lists $own"
	else notok "$cmd --help lists $own"; fi
	if grep -Eq "^([a-z]+, )*$cmd(, [a-z]+)*: $own\$" "$top_srcdir/man/clbanks.1.in"
	then ok "the man page lists $own for $cmd"
	else notok "the man page lists $own for $cmd"; fi
done
# issue 34: the man page documents every option --help lists (--timer was missing) and every
# CLBANKS_ variable the program reads (CLBANKS_TIMER was).
MAN=$top_srcdir/man/clbanks.1.in
for opt in $("$CLBANKS" --help 2>&1 | sed -n 's/^  \(-., \)\{0,1\} *--\([a-z][a-z-]*\).*/\2/p' | sort -u); do
	if grep -q "^\.B[IR]* .*\\\\-\\\\-$(printf '%s' "$opt" | sed 's/-/\\\\-/g')\\b" "$MAN"
	then ok "the man page documents --$opt"
	else notok "the man page documents --$opt"; fi
done
for var in $(grep -rhoE 'getenv\("CLBANKS_[A-Z_]+"\)' "$top_srcdir/src" | sed 's/.*"\(.*\)".*/\1/' | sort -u); do
	if sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$MAN" | grep -q "^\.B $var\$"
	then ok "the man page's ENVIRONMENT has $var"
	else notok "the man page's ENVIRONMENT has $var"; fi
done
echo "1..$n"
}

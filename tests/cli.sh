#!/bin/sh
# SPDX-License-Identifier: MIT
# The CLI contract table (tests/cli-table.txt) as TAP: arguments, exit status, expected text.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

EMPTY=$TMP/empty-icd
mkdir -p "$EMPTY"
PLAN=$TMP/plan.json
PLAN32=$TMP/plan32.json
"$CLBANKS" plan --subgroup 8 --quick -o "$PLAN" || exit 99
"$CLBANKS" plan --subgroup 32 --quick -o "$PLAN32" || exit 99
DOC=$TMP/nvidia.json
"$top_builddir/tests/synth_doc" nvidia > "$DOC" || exit 99
export EMPTY PLAN PLAN32 DOC TMP
have_cl=no
have_opencl && have_cl=yes

n=0
total=$(grep -cv '^\(#\|$\)' "$top_srcdir/tests/cli-table.txt")
echo "1..$total"
while IFS='|' read -r need status regex cmd; do
	case $need in \#*|'') continue ;; esac
	need=$(echo "$need" | tr -d ' ')
	status=$(echo "$status" | tr -d ' ')
	regex=$(echo "$regex" | sed 's/^ *//; s/ *$//')
	cmd=$(echo "$cmd" | sed 's/^ *//; s/ *$//')
	n=$((n + 1))
	if [ "$need" = cl ] && [ "$have_cl" = no ]; then
		echo "ok $n - $cmd # SKIP no OpenCL platform"
		continue
	fi
	# 'clbanks' as a word is the binary under test.
	run=$(echo "$cmd" | sed "s#\(^\|[ =]\)clbanks\( \|\$\)#\1\"\$CLBANKS\"\2#")
	out=$(eval "$run" 2>&1 </dev/null)
	got=$?
	if [ "$got" != "$status" ]; then
		echo "not ok $n - $cmd: exit $got, expected $status"
		echo "$out" | sed 's/^/# /' | head -20
	elif ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then
		echo "not ok $n - $cmd: output does not match /$regex/"
		echo "$out" | sed 's/^/# /' | head -20
	else
		echo "ok $n - $cmd"
	fi
done < "$top_srcdir/tests/cli-table.txt"

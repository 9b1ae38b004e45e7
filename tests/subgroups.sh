#!/bin/sh
# SPDX-License-Identifier: MIT
# Sub-groups of every size from 4 to 64 lanes (issue 39: sizes that are not powers of two were
# read past their tables' end, and only the sanitizer build saw it). For each size, a synthetic
# document (tests/synth_doc sub N: 32 banks of 4 B, N lanes) is analyzed by predict at one
# element size and stride (all of them over the sweep), whole and with half of the lanes; lint
# prices a transpose with it at ten of the sizes. Each command must exit 0 and price, or, when
# the model of such an odd size is inconclusive, exit 2 saying so: never crash. Sizes 1 to 3
# cannot be measured (a run needs 4 lanes); unit_model sweeps the model itself over 1 to 64.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

n=0
bad=
run() { # EXPECTED-TEXT COMMAND...: exit 0 with the text, or exit 2 for an inconclusive model
	want=$1
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "has no bank model .*inconclusive" "$TMP/err"; then
		return
	fi
	if [ $rc -ne 0 ]; then
		bad="$bad [exit $rc from $*: $(head -c 300 "$TMP/err")]"
	elif ! grep -q -- "$want" "$TMP/out"; then
		bad="$bad [no '$want' from $*]"
	fi
}
check() { # DESCRIPTION: passes when nothing went wrong in this size's commands
	n=$((n + 1))
	if [ -z "$bad" ]; then echo "ok $n - $1"; else echo "not ok $n - $1:$bad"; fi
	bad=
}

lint=no
if [ -x "$top_builddir/clbanks-lint" ] && "$CLBANKS" lint --help >/dev/null 2>&1; then
	lint=yes
fi
echo "1..61"
size=4
for e in 1 2 4 8 16; do
	for s in 0 1 3 32 33 2 5 64 7 16 31 65 4; do
		[ "$size" -le 64 ] || break 2
		doc=$TMP/sub$size.json
		"$top_builddir/tests/synth_doc" sub "$size" >"$doc" || bad=" [synth_doc sub $size]"
		run "pass" "$CLBANKS" predict --model "$doc" --elem-bytes $e --stride $s
		run "pass" "$CLBANKS" predict --model "$doc" --elem-bytes $e --stride $s \
			--active $(((size + 1) / 2))
		case $lint:$size in yes:4|yes:5|yes:6|yes:7|yes:12|yes:17|yes:24|yes:32|yes:48|yes:64)
			run "naive" "$CLBANKS" lint "$top_srcdir/tests/lint/transpose.cl" \
				--model "$doc" --local 32,8 ;;
		esac
		check "sub-groups of $size lanes: predict at $e B, stride $s, all and half the lanes"
		size=$((size + 1))
	done
done

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
OPS=$TMP/ops.json
"$top_builddir/tests/synth_doc" ops > "$TMP/ops-raw.json" || exit 99
"$CLBANKS" analyze "$TMP/ops-raw.json" -F json -o "$OPS" || exit 99
# The 4-byte atomics' own model with its broadcast not recorded (null).
awk '/"by_elem_bytes": \{/ { on = 1 } on && !done && /"broadcast": / {
	sub(/"broadcast": [a-z]+/, "\"broadcast\": null"); done = 1 } { print }' \
	"$top_srcdir/results/nvidia/h200.json" > "$TMP/bnull.json"
# A per-size inference under a size that does not exist.
sed 's/"by_elem_bytes": {/"by_elem_bytes": { "3": {},/' "$top_srcdir/results/nvidia/h200.json" > "$TMP/by3.json"
# A format 1 document may not hold stores.
sed 's/"format_version": 4/"format_version": 1/' "$OPS" > "$TMP/v1-store.json"
H200=$top_srcdir/results/nvidia/h200.json
# The H200's document with a stale recorded verdict (64 banks): predict and lint use what its
# measurements say (32), as analyze does.
awk '/^ "inference": \{/ { on = 1 } on && !done && /"banks": 32/ { sub(/32/, "64"); done = 1 }
	{ print }' "$H200" > "$TMP/stale.json"
CPU=$top_srcdir/results/pocl/xeon-skylake-avx512.json
# The H200 10% slower everywhere: the same model, a cost of a pass beyond the noise.
awk '/"ns_per_access": [0-9]/ { v = $2; sub(/,$/, "", v)
	sub(/: [0-9.e+-]+/, sprintf(": %.6g", v * 1.1)) } { print }' "$H200" > "$TMP/slow.json"
# A run's measurement that never gave a valid time: samples, no ns_per_access (the first
# measurement's); the same without its samples too is a plan's.
awk '/"measurements": \[/ { on = 1 } on && !done && /"ns_per_access"/ { done = 1; next } { print }' \
	"$CPU" > "$TMP/untimed.json"
awk '/"measurements": \[/ { on = 1 } on && /"samples_ns"/ { skip = 1 } skip && /\]/ { skip = 0; next }
	skip { next } { print }' "$TMP/untimed.json" > "$TMP/untimed-plan.json"
lanes() { # STRIDE_BYTES: 32 lane offsets
	i=0 out=
	while [ $i -lt 32 ]; do out="$out${out:+,}$((i * $1))"; i=$((i + 1)); done
	echo "$out"
}
L32=$(lanes 128)
L32_33=$(lanes 132)
ZERO32=$(lanes 0)
S16_1=$(lanes 16)
: > "$TMP/empty.json"
head -c 300 "$H200" > "$TMP/truncated.json"
printf '\001\002binary\377' > "$TMP/garbage.json"
echo '{"format":"clbanks","format_version":1,"device":{"subgroup_size":4},"measurements":[{"op":"load","elem_bytes":4,"lanes":[0,4,8,12],"ns_per_access":NaN}]}' > "$TMP/nan.json"
truncate -s 300M "$TMP/huge.json"
echo '{"format":"other"}' > "$TMP/other.json"
echo '{"format":"clbanks","format_version":7}' > "$TMP/v7.json"
echo '{"format":"clbanks","format_version":1,"device":{"subgroup_size":4},"measurements":[{"op":"load","elem_bytes":4,"lanes":[0,4,8],"ns_per_access":1}]}' > "$TMP/short.json"
echo '{"format":"clbanks","format_version":1,"device":{"subgroup_size":4},"measurements":[{"op":"load","elem_bytes":4,"lanes":[0,4,8,12],"ns_per_access":-1}]}' > "$TMP/negative.json"
echo '{"format":"clbanks","format_version":1,"device":{"subgroup_size":4,"local_mem_bytes":49152},"measurements":[{"op":"load","elem_bytes":4,"lanes":[0,4,8,65536],"ns_per_access":1}]}' > "$TMP/outside.json"
sed 's/"warnings": \[\]/"warnings": ["the baseline drifted (test)"]/' "$H200" > "$TMP/warned.json"
# A device name of 45 characters, most of them two bytes in UTF-8.
sed 's/"name": "NVIDIA H200"/"name": "NVIDIA \xc4\xa4200 \xc3\x84\xc3\x96\xc3\x9c \xc3\xa4\xc3\xb6\xc3\xbc \xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6\xc4\xa6"/' "$H200" > "$TMP/utf8.json"
# Model folders for --model NAME: two vendors with the same short name, a synthetic and a
# documented model; and a file named h200 in a folder, which wins over the model h200.
MODELS=$TMP/models
mkdir -p "$MODELS/x" "$MODELS/y" "$MODELS/syn" "$TMP/pathwins"
cp "$OPS" "$MODELS/x/m.json" && cp "$OPS" "$MODELS/y/m.json" && cp "$DOC" "$MODELS/syn/s.json" || exit 99
sed 's/^{/{"provenance": "documented",/' "$DOC" > "$MODELS/syn/doc.json" || exit 99
cp "$CPU" "$TMP/pathwins/h200" || exit 99
export MODELS
export EMPTY PLAN PLAN32 DOC TMP H200 CPU L32 L32_33 ZERO32 S16_1 OPS
have_cl=no
have_opencl && have_cl=yes
have_gp=no
command -v gnuplot >/dev/null 2>&1 && have_gp=yes
have_ll=no
grep -q 'define CB_HAVE_LLVM 1' "$top_builddir/config.h" && have_ll=yes
LINT=$top_srcdir/tests/lint
export LINT

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
	if [ "$need" = gp ] && [ "$have_gp" = no ]; then
		echo "ok $n - $cmd # SKIP no gnuplot"
		continue
	fi
	if [ "$need" = ll ] && [ "$have_ll" = no ]; then
		echo "ok $n - $cmd # SKIP built without LLVM (lint)"
		continue
	fi
	if [ "$need" = nl ] && [ "$have_ll" = yes ]; then
		echo "ok $n - $cmd # SKIP built with LLVM (lint)"
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

#!/bin/sh
# SPDX-License-Identifier: MIT
# compare on a fleet: 1,000 synthetic documents laid out as a Slurm run leaves them
# (runs/nodeNNNN/DEVICE.json, tests/synth_fleet.c): 900 NVIDIA-like and 100 AMD-like GPUs, one
# of them (node 417) 25% slow. Identical devices make one row each with their count; the slow
# one is named as an outlier, and no other; the shared analysis gives each document the figures
# it has alone; the CSV keeps one row per document (99 of them, to keep the test short).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

n=0
check() { # DESCRIPTION COMMAND...: passes when the command succeeds
	desc=$1
	shift
	n=$((n + 1))
	if "$@" >"$TMP/check" 2>&1; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		sed 's/^/# /' "$TMP/check" | head -20
	fi
}

echo "1..15"
mkdir -p "$TMP/runs"
"$top_builddir/tests/synth_fleet" "$TMP/runs" 1000 417 || exit 99
cd "$TMP" || exit 99
COLUMNS=250 "$CLBANKS" compare runs/*/*.json >"$TMP/text" 2>"$TMP/err"
rc=$?
check "compare of 1,000 documents exits 0" test $rc -eq 0
check "the 900 NVIDIA-like GPUs are one row, with their count and the files' pattern" \
	grep -Eq '^Synthetic H200-like +900 throughput +32 +32 x 4 B .* runs/node0\*/synthetic-h200-like\.json$' "$TMP/text"
check "the 100 AMD-like GPUs another" \
	grep -Eq '^Synthetic MI300-like +100 throughput +64 +32 x 4 B ' "$TMP/text"
check "two rows in all" test "$(grep -c '^Synthetic' "$TMP/text")" -eq 2
check "the slow GPU is named, with both figures" \
	grep -Eq '^  runs/node0417/synthetic-h200-like\.json \(Synthetic H200-like, host node0417\): cost per pass 0\.41[0-9]* ns per sub-group, \+2[45]\.[0-9]% from the median .* of 900 .*conflict-free bandwidth [0-9]+ GB/s, -(19|20)\.[0-9]% from' "$TMP/text"
check "and no other device" test "$(grep -c '^  runs/node' "$TMP/text")" -eq 1
# The spread of identical GPUs is their chip-to-chip 0.1% (the slow one does not widen it).
check "the spread of cost per pass and throughput is small" \
	grep -Eq '^Synthetic H200-like +900 .* \+-0\.[0-2]% +[0-9]+ \+-0\.[0-2]% ' "$TMP/text"
# At the default width (100) the table fits, split in parts rather than wider (issue 34).
"$CLBANKS" compare runs/*/*.json >"$TMP/narrow" 2>&1
check "at 100 columns no line is wider, and the rows keep their figures" sh -c \
	"! awk 'length(\$0) > 100' '$TMP/narrow' | grep -q . &&
	grep -Eq '^1 Synthetic H200-like +900 throughput .* \+-0\.[0-2]% +[0-9]+ \+-0\.[0-2]%\$' '$TMP/narrow'"
"$CLBANKS" compare runs/node00*/*.json -F csv >"$TMP/csv"
check "the CSV keeps one row per document" test "$(wc -l <"$TMP/csv")" -eq 100
# Documents analyzed together (one pass cache, several threads) get what they get alone.
"$CLBANKS" compare runs/node0002/*.json -F csv | tail -1 >"$TMP/alone"
"$CLBANKS" compare runs/node0010/*.json -F csv | tail -1 >>"$TMP/alone"
grep -E '^3,runs/node00(02|10)/' "$TMP/csv" >"$TMP/together"
check "a document's figures in the fleet are its figures alone" cmp "$TMP/alone" "$TMP/together"
# Two identical devices: a spread, but no outlier (which one would it be?).
COLUMNS=200 "$CLBANKS" compare runs/node0001/*.json runs/node0417/*.json >"$TMP/two"
check "two devices are one row of 2, with no outlier named" \
	sh -c "grep -Eq '^Synthetic H200-like +2 ' '$TMP/two' && ! grep -q '^Outliers' '$TMP/two'"
# Documents that are not identical stay apart: another driver.
sed 's/"driver_version": "580.159.04"/"driver_version": "580.65.06"/' runs/node0001/synthetic-h200-like.json >"$TMP/other-driver.json"
COLUMNS=200 "$CLBANKS" compare runs/node0001/*.json runs/node0002/*.json "$TMP/other-driver.json" >"$TMP/drv"
check "another driver is another row" \
	sh -c "grep -Eq '^Synthetic H200-like +2 ' '$TMP/drv' && grep -Eq '^Synthetic H200-like +1 .*other-driver.json\$' '$TMP/drv'"
# JSON: the groups and the outliers for programs (nodes 400 to 429: 27 NVIDIA-like, 3 AMD-like).
"$CLBANKS" compare runs/node04[0-2]*/*.json -F json >"$TMP/json"
check "JSON: the groups, with their count" sh -c \
	"grep -q '\"count\": 27,' '$TMP/json' && grep -q '\"count\": 3,' '$TMP/json'"
check "JSON: the slow GPU is the outlier, both figures" sh -c \
	"test \$(grep -c '\"file\": \"runs/node0417/synthetic-h200-like.json\"' '$TMP/json') -eq 3 &&
	grep -q '\"figure\": \"pass_ns_per_subgroup\"' '$TMP/json' &&
	grep -q '\"figure\": \"bandwidth_4B_gbs\"' '$TMP/json'"
check "JSON: still one entry per document" test "$(grep -c '^      "inference": {' "$TMP/json")" -eq 30

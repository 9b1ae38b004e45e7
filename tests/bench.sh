#!/bin/sh
# SPDX-License-Identifier: MIT
# Times the phases of full runs: program builds, calibration, measurement, analysis, wall
# clock, and the geometry each run found. Not part of make check (timings are not tests).
#   tests/bench.sh [-n RUNS] [clbanks options...]      e.g. tests/bench.sh -n 10 --quick
# CLBANKS overrides the binary (default ./clbanks).
runs=3
if [ "${1:-}" = -n ]; then
	runs=$2
	shift 2
fi
bin=${CLBANKS:-./clbanks}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clbanks-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

field() { # FILE KEY: first numeric value of "KEY": in the document
	sed -n "s/^ *\"$2\": \([0-9.eE+-]*\),*$/\1/p" "$1" | head -1
}
sfield() { # FILE KEY: first string or null value
	sed -n "s/^ *\"$2\": \"*\([^\",]*\)\"*,*$/\1/p" "$1" | head -1
}

printf '%-4s %9s %8s %8s %8s %8s %8s  %s\n' run wall_s build calib measure analyze rounds result
i=1
while [ "$i" -le "$runs" ]; do
	doc=$tmp/run$i.json
	start=$(date +%s%N)
	"$bin" "$@" -q -o "$doc" || { echo "run $i failed (exit $?)"; exit 1; }
	end=$(date +%s%N)
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	inf=$tmp/inf$i
	sed -n '/^ "inference": {/,/^ }/p' "$doc" > "$inf"
	status=$(sfield "$inf" status)
	banks=$(sfield "$inf" banks)
	width=$(sfield "$inf" bank_width_bytes)
	printf '%-4s %9s %8.3f %8.3f %8.3f %8.3f %8s  %s %s x %s B\n' "$i" "$wall" \
		"$(field "$doc" build)" "$(field "$doc" calibration)" "$(field "$doc" measurement)" \
		"$(field "$doc" analysis)" "$(field "$doc" rounds)" "$status" "$banks" "$width"
	i=$((i + 1))
done

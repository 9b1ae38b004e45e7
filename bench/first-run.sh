#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 40's targets: the first run on a machine (an empty kernel cache, as after an install)
# against a warm one, on a CPU device (PoCL) or any other. Each pair is one first run, with
# POCL_CACHE_DIR (and the other drivers' caches: CUDA_CACHE_PATH, MESA_SHADER_CACHE_DIR)
# pointing at a new empty folder, then one warm run with that folder filled. Prints each run's
# wall time and run.seconds (build, measurement, check, total), then the medians, the ratio
# first/warm and the difference first - warm of each pair and their medians. Goal: first <= 1.6
# x warm and <= 12 s on 2 cores; the difference is what the first run costs more, the ratio
# also moves with the warm run's own length (see results/pocl/first-run-2core.txt).
# Not part of make check (timings are not tests).
#   bench/first-run.sh OUT [PAIRS] [DEVICE]   (PAIRS default 5, DEVICE default 0; clbanks from
#                                              PATH, or CLBANKS=/path/to/clbanks; CLBANKS_ARGS
#                                              adds options to every run)
out=$1 pairs=${2:-5} device=${3:-0}
bin=${CLBANKS:-clbanks}
[ -n "$out" ] || { echo "usage: bench/first-run.sh OUT [PAIRS] [DEVICE]" >&2; exit 2; }
mkdir -p "$out" || exit 1
command -v "$bin" >/dev/null 2>&1 || { echo "bench: no $bin on PATH" >&2; exit 2; }
summary=$out/summary.txt

# run.seconds.KEY of a document ("-" when absent).
seconds_of() {
	awk -v key="$2" '/^  "seconds": \{/ { s = 1; next } s && /^  \}/ { exit }
		s && $1 == "\"" key "\":" { gsub(/,/, "", $2); v = $2 }
		END { print v == "" ? "-" : v }' "$1"
}
now() { date +%s.%N; }

run_one() { # KIND I CACHE
	doc=$out/$1-$2.json
	rm -f "$doc"
	t0=$(now)
	# shellcheck disable=SC2086 # CLBANKS_ARGS is a list of options
	POCL_CACHE_DIR=$3 CUDA_CACHE_PATH=$3 MESA_SHADER_CACHE_DIR=$3 \
		"$bin" --device "$device" $CLBANKS_ARGS -q -o "$doc" >"$out/$1-$2.txt" 2>"$out/$1-$2.err"
	rc=$?
	t1=$(now)
	wall=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
	if [ "$rc" -ne 0 ]; then
		printf '%-5s %2d  exit %d: %s\n' "$1" "$2" "$rc" "$(tail -1 "$out/$1-$2.err")" >>"$summary"
		return
	fi
	printf '%-5s %2d  wall %6s  build %s  measurement %s  check %s  total %s\n' "$1" "$2" \
		"$wall" "$(seconds_of "$doc" build)" "$(seconds_of "$doc" measurement)" \
		"$(seconds_of "$doc" check)" "$(seconds_of "$doc" total)" >>"$summary"
}

: >"$summary"
echo "# $("$bin" --version 2>&1 | head -1), device $device, $(nproc 2>/dev/null) cores," \
	"load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null), $(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$summary"
i=1
while [ "$i" -le "$pairs" ]; do
	cache=$(mktemp -d) || exit 1
	run_one first "$i" "$cache"
	run_one warm "$i" "$cache"
	rm -rf "$cache"
	i=$((i + 1))
done

awk '
function median(a, n,    i, j, t) {
	for (i = 1; i < n; i++) for (j = i; j > 0 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[int(n / 2)] : (a[n / 2 - 1] + a[n / 2]) / 2
}
$3 == "wall" { w[$1, $2] = $4; if ($1 == "first") nf++ }
END {
	for (k in w) { split(k, p, SUBSEP); if (p[1] == "first") f[a++] = w[k]; else m[b++] = w[k]
		       if (p[1] == "first" && (("warm", p[2]) in w)) { r[c] = w[k] / w["warm", p[2]]
								       d[c++] = w[k] - w["warm", p[2]] } }
	if (!a || !b) { print "no successful pair"; exit }
	printf "median wall: first %.2f s, warm %.2f s; median ratio first/warm %.2f, median first - warm %.2f s (%d pairs)\n",
		median(f, a), median(m, b), c ? median(r, c) : 0, c ? median(d, c) : 0, c
}' "$summary" >>"$summary"
cat "$summary"

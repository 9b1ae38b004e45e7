#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 36's targets on a GPU, in one session: 10 cold runs (the default, each with empty
# compiler caches: CUDA_CACHE_PATH, MESA_SHADER_CACHE_DIR, POCL_CACHE_DIR and clbanks' own
# CLBANKS_CACHE_DIR a new folder, the time of a first run after an install or a driver
# update), then 10 default runs (the adaptive design: 3 ops and the transpose check), 10 loads-only runs and 10 runs of the whole
# plan (--plan full). --quick is retired (it runs the default), so it has no kind of its own.
# Then, where the script may write /proc/sys/vm/drop_caches (root), 10 boot runs: the default
# after the page cache is dropped, every cache on disk kept, the nearest a lent machine comes to
# the first run after a boot (it cannot be rebooted; the GPU stays initialized).
# Writes every document and report into OUT and OUT/summary.txt: each run's run.seconds.total
# (from the context's creation to the end of the check), its wall time (the whole command, as
# time(1) sees it: the driver's start-up and exit too), run.launches, the model and confidence of each op, then the checks (default <= 0.5 s, loads
# <= 0.25 s, cold and boot <= 1.0 s, 10 of 10 within 1.25x of their kind's median, the same model in
# every run of a kind) and the time of analyze of the --plan full document. RUNS=N changes the
# 10. Not part of make check (timings are not tests).
#   bench/h200-adaptive.sh OUT [DEVICE]     (DEVICE default NVIDIA; clbanks from PATH, or
#                                            CLBANKS=/path/to/clbanks)
# Each run is stopped after 60 s; the whole script takes about 2 to 3 minutes on an H200.
out=$1 device=${2:-NVIDIA}
bin=${CLBANKS:-clbanks}
[ -n "$out" ] || { echo "usage: bench/h200-adaptive.sh OUT [DEVICE]" >&2; exit 2; }
mkdir -p "$out" || exit 1
command -v "$bin" >/dev/null 2>&1 || { echo "bench: no $bin on PATH" >&2; exit 2; }
summary=$out/summary.txt
limit() { if command -v timeout >/dev/null 2>&1; then timeout 60 "$@"; else "$@"; fi; }

# A number from the document: run.seconds.total, or the first "KEY": N at two spaces' depth.
total_of() { awk '/^  "seconds": \{/ { s = 1 } s && /"total":/ { gsub(/[",]/, ""); print $2; exit }' "$1"; }
key_of() { sed -n "s/^  \"$2\": \\([0-9.e+-]*\\),*\$/\\1/p" "$1" | head -1; }
# "load 32 x 4 B 0.999; store ...": the Result line of each op's block in the report.
models_of() {
	awk '/^(Loads|Stores|Atomics)$/ { op = $1 }
	     /^Result:/ { sub(/^Result: +/, ""); gsub(/ banks x /, "x"); gsub(/ bytes/, "B");
			  printf "%s%s %s", n++ ? "; " : "", op, $0 }
	     END { print "" }' "$1"
}

# "2:1.99 4:3.98 ...": the 4-byte stride ratios 2..32 of the report's loads table (ncu: 2..32).
strides_of() {
	awk '/^Strides \(loads\)/ { on = 1; next } on && /^$/ { exit }
	     on && $1 ~ /^(2|4|8|16|32)$/ && NF >= 11 { printf "%s%s:%s", n++ ? " " : "", $1, $6 }
	     END { print "" }' "$1"
}

run_kind() { # KIND COUNT ARGS...
	kind=$1 count=$2
	shift 2
	# One untimed run first, so that the caches hold this kind's programs (a loads-only run
	# builds fewer kernels than a default one): the cold kind measures first runs.
	[ "$kind" = cold ] || [ "$kind" = boot ] ||
		limit "$bin" --device "$device" "$@" -o /dev/null --force >/dev/null 2>&1
	i=1
	while [ "$i" -le "$count" ]; do
		doc=$out/$kind-$i.json
		rm -f "$doc"
		cache=
		# (sync first: dirty pages are not dropped; then a second for the disk to settle)
		[ "$kind" != boot ] || { sync && echo 3 >/proc/sys/vm/drop_caches && sleep 1; } ||
			{ echo "bench: cannot drop the page cache" >&2; exit 1; }
		start_ns=$(date +%s%N)
		if [ "$kind" = cold ]; then
			cache=$(mktemp -d "${TMPDIR:-/tmp}/clbanks-cold.XXXXXX") || exit 1
			CUDA_CACHE_PATH=$cache MESA_SHADER_CACHE_DIR=$cache POCL_CACHE_DIR=$cache \
				CLBANKS_CACHE_DIR=$cache/clbanks \
				limit "$bin" --device "$device" "$@" -o "$doc" >"$out/$kind-$i.txt" \
				2>"$out/$kind-$i.err"
			rc=$?
		else
			limit "$bin" --device "$device" "$@" -o "$doc" >"$out/$kind-$i.txt" \
				2>"$out/$kind-$i.err"
			rc=$?
		fi
		wall=$(awk -v a="$start_ns" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
		[ -z "$cache" ] || rm -rf "$cache"
		if [ "$rc" -ne 0 ] || [ ! -s "$doc" ]; then
			printf '%s %2d  exit %d: %s\n' "$kind" "$i" "$rc" "$(tail -1 "$out/$kind-$i.err")" \
				>>"$summary"
		else
			printf '%s %2d  seconds %s  wall %s  launches %s  device_seconds %s  protocol %s  %s\n' \
				"$kind" "$i" "$(total_of "$doc")" "$wall" "$(key_of "$doc" launches)" \
				"$(key_of "$doc" device_seconds)" \
				"$(sed -n 's/^  "protocol": "\(.*\)",*$/\1/p' "$doc" | head -1)" \
				"$(models_of "$out/$kind-$i.txt")" >>"$summary"
			echo "    4-byte strides: $(strides_of "$out/$kind-$i.txt")" >>"$summary"
		fi
		i=$((i + 1))
	done
}

: >"$summary"
echo "# $("$bin" --version 2>&1 | head -1), device $device, $(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$summary"
start=$(date +%s)
runs=${RUNS:-10}
run_kind cold "$runs"
run_kind default "$runs"
run_kind loads "$runs" --ops load
run_kind full "$runs" --plan full
if [ -w /proc/sys/vm/drop_caches ]; then
	run_kind boot "$runs"
else
	echo "# boot: not run (/proc/sys/vm/drop_caches is not writable here)" >>"$summary"
fi

# The checks, per kind: the median of run.seconds.total, the slowest against it, the models.
check() { # KIND TARGET_S (0: none)
	awk -v kind="$1" -v target="$2" '
	$1 == kind && $3 == "seconds" { w[n + 0] = $6; t[n++] = $4; m = $0; sub(/.*protocol [a-z]+  /, "", m)
					gsub(/ \(confidence [0-9.]+\)/, "", m)
					if (!(m in first)) { first[m] = 1; nm++ } }
	$1 == kind && $3 == "exit" { failed++ }
	# (the "4-byte strides" lines that follow each run are not runs)
	END {
		if (!n) { printf "%-8s no successful run\n", kind; exit }
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) {
			if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
			if (w[j] < w[i]) { x = w[i]; w[i] = w[j]; w[j] = x }
		}
		med = n % 2 ? t[int(n / 2)] : (t[n / 2 - 1] + t[n / 2]) / 2
		wmed = n % 2 ? w[int(n / 2)] : (w[n / 2 - 1] + w[n / 2]) / 2
		within = 0; over = 0
		for (i = 0; i < n; i++) { within += t[i] <= 1.25 * med; over += target > 0 && t[i] > target }
		printf "%-8s %d runs (%d failed): median %.3f s, slowest %.3f s (%.2fx the median), %d of %d within 1.25x",
		       kind, n, failed, med, t[n - 1], t[n - 1] / med, within, n
		if (target > 0) printf "; target %.2f s: %s (%d over)", target, med <= target && over == 0 ? "met" : "NOT met", over
		printf "; %s; wall time median %.3f s\n", nm == 1 ? "the same model every run" : nm " different models", wmed
	}' "$summary"
}
# Issue 36.4: analyze of the first --plan full document, and of its measurements repeated 19
# times (20,653 when it has 1,087, as the H200's does): the median wall time of 3 runs.
analyze_s() { # DOC
	for k in 1 2 3; do
		s=$(date +%s.%N)
		"$bin" analyze "$1" >/dev/null 2>&1 || { echo "failed"; return; }
		echo "$s $(date +%s.%N)" | awk '{ printf "%.3f\n", $2 - $1 }'
	done | sort -n | sed -n 2p
}
analyze_line() {
	doc=$out/full-1.json
	[ -s "$doc" ] || { echo "analyze  no --plan full document"; return; }
	awk -v N=19 '
	/"measurements": \[/ { print; inm = 1; next }
	inm && /^ \],?$/ { for (k = 1; k <= N; k++) for (i = 1; i <= m; i++) {
			o = obj[i]; if (k < N || i < m) sub(/\}$/, "},", o); print o }
		print; inm = 0; next }
	inm && /^  \{$/ { cur = $0; next }
	inm && /^  \},?$/ { obj[++m] = cur "\n  }"; next }
	inm { cur = cur "\n" $0; next }
	{ print }' "$doc" >"$out/full-1-x19.json"
	printf 'analyze  full-1.json (%d measurements): median %s s; 19 times its measurements (%d): median %s s; target <= 1 s\n' \
		"$(grep -c '^   "kind": ' "$doc")" "$(analyze_s "$doc")" \
		"$(grep -c '^   "kind": ' "$out/full-1-x19.json")" "$(analyze_s "$out/full-1-x19.json")"
	rm -f "$out/full-1-x19.json"
}
{
	echo
	echo "# checks (run.seconds.total)"
	check cold 1.0
	check default 0.5
	check loads 0.25
	check full 0
	grep -q "^boot " "$summary" && check boot 1.0
	analyze_line
	echo "# wall time of the script: $(( $(date +%s) - start )) s"
} >>"$summary"
cat "$summary"

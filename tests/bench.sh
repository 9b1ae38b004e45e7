#!/bin/sh
# SPDX-License-Identifier: MIT
# The performance table: runs clbanks as a user would and prints each measure next to its
# target, in one run. Not part of make check (timings are not tests); `make bench` runs it.
#   tests/bench.sh [-n RUNS] [--device SPEC] [--reference DOC] [--skip-device]
# RUNS (default 3) default runs, RUNS quick runs, and RUNS latency runs of the device; the
# 4-byte stride ratios 2..32 of every default run against DOC's (a run with the earlier
# 2 ms launches); the analysis of 20,181 and 200,000 measurements (DOC's measurements
# repeated). CLBANKS overrides the binary (default ./clbanks).
runs=3 device= ref= skip=no
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--device) device=$2; shift 2 ;;
	--reference) ref=$2; shift 2 ;;
	--skip-device) skip=yes; shift ;;
	*) echo "usage: tests/bench.sh [-n RUNS] [--device SPEC] [--reference DOC] [--skip-device]" >&2
	   exit 2 ;;
	esac
done
bin=${CLBANKS:-./clbanks}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clbanks-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# The 4-byte stride ratios 2, 4, 8, 16, 32 of a document, as "2.03 4.06 ...".
strides() {
	awk '
	/^  \{$/ { e = ""; k = ""; s = ""; t = "" }
	/^   "elem_bytes": / { e = $2; sub(/,/, "", e) }
	/^   "kind": / { k = $2; gsub(/[",]/, "", k) }
	/^    "stride": / { s = $2; sub(/,/, "", s) }
	/^   "ns_per_access": / { t = $2; sub(/,/, "", t) }
	/^  \},?$/ { if (e == 4 && k == "stride" && t != "") ns[s] = t }
	END { for (i = 2; i <= 32; i *= 2) printf "%s%.3f", (i > 2 ? " " : ""), ns[i] / ns[1] }' "$1"
}
# The inferred model as one line (status, geometry, lanes per pass, broadcast, packing).
model() {
	sed -n '/^ "inference": {/,/^ }/p' "$1" | awk '
	/^  "(status|banks|bank_width_bytes|broadcast|pair_packing)": / { printf "%s ", $2 }
	/^  "lanes_per_pass": \{/ { on = 1; next }
	on && /^  \}/ { on = 0 }
	on { printf "%s ", $0 }' | tr -s ' ' | sed 's/,//g'
}
# The conflict-free throughput of 4-byte loads (the first Bandwidth block: loads) as a share of
# banks x width, from the report.
peak_share() {
	"$bin" analyze "$1" | awk '/^[A-Z]/ { on = /^Bandwidth:/ && !done; if (on) done = 1 } on { line = line " " $0 }
		END { n = split(line, f, " "); for (i = 1; i <= n; i++) { if (f[i] == "4" &&
		f[i + 1] == "B:") v = f[i + 2] + 0; if (f[i] == "width:") w = f[i + 1] + 0 }
		if (v && w) printf "%.0f%%", 100 * v / w; else printf "-" }'
}
# min / median / max of the numbers in FILE
spread() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f / %.2f / %.2f s", v[1], v[int((NR + 1) / 2)], v[NR] }'; }

row() { printf '%-40s %-34s %s\n' "$1" "$2" "$3"; }

timed_runs() { # LABEL ARGS...: RUNS runs; wall times into $tmp/LABEL.t, documents $tmp/LABEL.N.json
	label=$1
	shift
	: > "$tmp/$label.t"
	i=1
	while [ "$i" -le "$runs" ]; do
		s=$(now)
		"$bin" ${device:+--device "$device"} "$@" -q -o "$tmp/$label.$i.json" >/dev/null ||
			{ echo "bench: run $i of $label failed" >&2; return 1; }
		echo "$(secs "$s" "$(now)")" >> "$tmp/$label.t"
		i=$((i + 1))
	done
}

printf '%-40s %-34s %s\n' measure measured target
if [ $skip = no ]; then
	timed_runs default && row "default run, wall (min / median / max)" "$(spread "$tmp/default.t")" "<= 2.5 s (GPU), <= 15 s (PoCL, 2 cores)"
	timed_runs quick --quick && row "--quick, wall" "$(spread "$tmp/quick.t")" "<= 0.8 s (GPU)"
	timed_runs latency --regime latency && row "latency regime, default, wall" "$(spread "$tmp/latency.t")" "<= 2.5 s (GPU)"
	for f in "$tmp"/default.*.json; do model "$f"; echo; done | sort | uniq -c | sort -rn > "$tmp/models"
	row "same model over $runs default runs" "$(head -1 "$tmp/models" | awk '{ print $1 }') of $runs" "all of them"
	sed 's/^ */    /' "$tmp/models"
	if [ -n "$ref" ]; then
		want=$(strides "$ref")
		worst=0
		for f in "$tmp"/default.*.json; do
			got=$(strides "$f")
			echo "    4-byte strides 2..32: $got (reference $want)"
			worst=$(echo "$got" "$want" | awk -v w="$worst" '{ for (i = 1; i <= 5; i++) {
				d = $i / $(i + 5) - 1; if (d < 0) d = -d; if (d > w) w = d } print w }')
		done
		row "4-byte stride ratios 2..32 vs reference" "worst $(awk -v w="$worst" 'BEGIN { printf "%.1f%%", 100 * w }')" "within 2% in every run"
	fi
	row "conflict-free throughput, 4-byte loads" "$(peak_share "$tmp/default.1.json") of banks x width" ">= 95% (GPU)"
fi
if [ -n "$ref" ]; then
	# DOC's measurements repeated: 31 x 651 = 20,181 and 308 x 651 (cut at 200,000).
	for n in 31 308; do
		awk -v N=$n '
		/"measurements": \[/ { print; inm = 1; next }
		inm && /^ \],?$/ { for (k = 1; k <= N; k++) for (i = 1; i <= m; i++) {
				out = obj[i]; if (k < N || i < m) sub(/\}$/, "},", out)
				if (++c > 200000) break; if (c == 200000) sub(/\},$/, "}", out); print out }
			print; inm = 0; next }
		inm && /^  \{$/ { cur = $0; next }
		inm && /^  \},?$/ { obj[++m] = cur "\n  }"; next }
		inm { cur = cur "\n" $0; next }
		{ print }' "$ref" > "$tmp/big$n.json"
		count=$(grep -c '^   "kind": ' "$tmp/big$n.json")
		s=$(now)
		"$bin" analyze "$tmp/big$n.json" > /dev/null || echo "bench: analyze of $count failed" >&2
		target="<= 1 s"
		[ "$n" = 308 ] && target="<= 10 s"
		row "analyze, $count measurements" "$(secs "$s" "$(now)") s" "$target"
	done
fi

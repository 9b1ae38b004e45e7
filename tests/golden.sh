#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden tests: every recorded result in results/ re-analyzes to exactly the document that was
# committed (inference included), its reports match tests/expected/, and synthetic devices give
# their known geometry. CLBANKS_UPDATE_GOLDEN=1 rewrites tests/expected/ from the current code.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }

# golden GOLDEN PRODUCED DESCRIPTION: compare (or, with CLBANKS_UPDATE_GOLDEN=1, refresh first)
golden() {
	if [ "${CLBANKS_UPDATE_GOLDEN:-0}" = 1 ]; then
		mkdir -p "$(dirname "$1")"
		cp "$2" "$1"
	fi
	if cmp -s "$1" "$2"; then
		ok "$3"
	else
		notok "$3"
		diff "$1" "$2" 2>&1 | head -30 | sed 's/^/# /'
	fi
}

# FILE: the inference object of a sorted, indented document, without the cost of a pass and the
# bandwidth, which format 3 names by their units (issue 34; the recorded documents are format
# 2), and per_elem's times by format 3's names: every other figure must be reproduced exactly.
inference_of() {
	sed -n '/^ "inference": {/,/^ }/p' "$1" | awk '
		/^  "bandwidth_gbs": \{/ { skip = 1; next }
		skip { if ($0 ~ /^  \}/) skip = 0; next }
		/^  "(bandwidth_gbs|bandwidth_limit_gbs|cost_per_pass_ns|cost_per_pass_cycles)":/ { next }
		/^  "(pass_cycles|pass_ns_per_subgroup|pass_ns_per_access)":/ { next }
		{ sub(/"t0_ns":/, "\"t0_ns_per_access\":"); sub(/"cost_per_pass_ns":/, "\"pass_ns_per_access\":")
		  print }'
}

plan=0
results=$(find "$top_srcdir/results" -name '*.json' | LC_ALL=C sort)
for f in $results; do plan=$((plan + 4)); done
plan=$((plan + 5 * 2 + 3))
echo "1..$plan"

for f in $results; do
	rel=${f#"$top_srcdir"/}
	name=$(echo "$rel" | sed 's#^results/##; s#\.json$##; s#/#_#g')
	if "$CLBANKS" analyze "$f" --format json -o "$TMP/re.json" --force 2>"$TMP/err"; then
		ok "$rel: re-analyzes"
	else
		notok "$rel: re-analyzes"
		sed 's/^/# /' "$TMP/err"
		n=$((n + 3))
		continue
	fi
	if [ -n "$(inference_of "$f")" ] && [ "$(inference_of "$f")" = "$(inference_of "$TMP/re.json")" ]; then
		ok "$rel: the recorded inference is reproduced exactly"
	else
		notok "$rel: the recorded inference is reproduced exactly"
		diff "$f" "$TMP/re.json" | head -40 | sed 's/^/# /'
	fi
	for fmt in text csv; do
		"$CLBANKS" analyze "$f" --format $fmt -o "$TMP/out.$fmt" --force 2>"$TMP/err"
		golden "$top_srcdir/tests/expected/$name.$fmt" "$TMP/out.$fmt" \
			"$rel: $fmt report matches tests/expected/$name.$fmt"
	done
done

# Synthetic devices: name, expected status, banks, width.
for row in "nvidia banked 32 4" "amd banked 32 4" "intel banked 16 4" "flat not_banked - -" \
	   "pocl not_banked - -"; do
	set -- $row
	"$top_builddir/tests/synth_doc" "$1" > "$TMP/$1.json"
	"$CLBANKS" analyze "$TMP/$1.json" --format json -o "$TMP/$1.out.json"
	inference_of "$TMP/$1.out.json" > "$TMP/$1.inf"
	if grep -q "\"status\": \"$2\"" "$TMP/$1.inf"; then
		ok "synthetic $1: $2"
	else
		notok "synthetic $1: $2"
		sed 's/^/# /' "$TMP/$1.inf" | head -20
	fi
	if [ "$3" = - ]; then
		if grep -q '"banks": null' "$TMP/$1.inf"; then
			ok "synthetic $1: no bank count"
		else
			notok "synthetic $1: no bank count"
		fi
	elif grep -q "\"banks\": $3," "$TMP/$1.inf" && grep -q "\"bank_width_bytes\": $4," "$TMP/$1.inf"; then
		ok "synthetic $1: $3 x $4 B"
	else
		notok "synthetic $1: $3 x $4 B"
	fi
done

# compare: every recorded result side by side, in each format (relative paths: stable output).
for fmt in text csv json; do
	(cd "$top_srcdir" && "$CLBANKS" compare $(find results -name '*.json' | LC_ALL=C sort) \
		--format $fmt) > "$TMP/compare.$fmt" 2>"$TMP/err"
	golden "$top_srcdir/tests/expected/compare.$fmt" "$TMP/compare.$fmt" \
		"compare, $fmt, matches tests/expected/compare.$fmt"
done

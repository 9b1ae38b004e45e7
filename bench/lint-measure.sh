#!/bin/sh
# SPDX-License-Identifier: MIT
# Measured lint of the kernels listed in bench/lint-measure-cases.txt, in the three steps of
# 'clbanks lint --format plan', 'clbanks --plan' and 'clbanks lint --measured', so that the
# GPU host needs no clang (results/nvidia/lint-measured.txt was made this way):
#   bench/lint-measure.sh plans MODEL DIR      the lane tables of each case as a plan (needs lint)
#   bench/lint-measure.sh measure DIR DEVICE   each plan measured on DEVICE (needs the GPU)
#   bench/lint-measure.sh report MODEL DIR     each measurement beside MODEL's prediction
# CLBANKS names the program (default: clbanks on the PATH); run from the source tree.
set -u
CLBANKS=${CLBANKS:-clbanks}
cases=$(dirname "$0")/lint-measure-cases.txt
[ $# -ge 3 ] || { echo "usage: $0 plans MODEL DIR | measure DIR DEVICE | report MODEL DIR" >&2; exit 2; }
step=$1
status=0
list=$(grep -v '^#' "$cases")
while IFS='|' read -r name args; do
	name=$(echo "$name" | tr -d ' ')
	case $step in
	plans) "$CLBANKS" lint $args --model "$2" --format plan -o "$3/$name.plan.json" -f ;;
	measure) "$CLBANKS" --device "$3" --plan "$2/$name.plan.json" -o "$2/$name.json" -f -q \
		>/dev/null ;;
	report) echo "== $name: clbanks lint $args --model $(basename "$2") --measured $name.json"
		"$CLBANKS" lint $args --model "$2" --measured "$3/$name.json" ;;
	*) echo "$0: unknown step '$step'" >&2; exit 2 ;;
	esac || { echo "$0: $name: exit $?" >&2; status=1; }
done <<EOF_CASES
$list
EOF_CASES
exit $status

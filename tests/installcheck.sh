#!/bin/sh
# SPDX-License-Identifier: MIT
# make installcheck (make distcheck runs it on its installed prefix): the installed clbanks,
# run from an empty folder with no checkout and no $CLBANKS_MODEL_PATH, finds its reference
# models by name. Usage: installcheck.sh BINDIR SRCDIR LINT(yes|no)
set -u
bin=$1/clbanks
srcdir=$2
lint=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$srcdir/tests/lint/transpose.cl" "$tmp/kernel.cl" || exit 1
cd "$tmp" || exit 1
unset CLBANKS_MODEL_PATH
fail=0
check() { # REGEX COMMAND...: COMMAND exits 0 and its output matches REGEX
	re=$1
	shift
	if out=$("$@" 2>&1) && printf '%s\n' "$out" | grep -Eq "$re"; then
		echo "installcheck: ok: $*"
	else
		echo "installcheck: FAILED: $*"
		printf '%s\n' "$out" | head -20
		fail=1
	fi
}
check '^nvidia-h200 +h200 +measured ' "$bin" --list-models
check '^pocl-xeon-skylake-avx512 ' "$bin" --list-models
check '^amd-mi300 +mi300 +documented ' "$bin" --list-models
check '^4 passes: 2-way conflict' "$bin" predict --model mi300 --elem-bytes 4 --stride 2
check '\(documented, not measured\)' "$bin" predict --model hopper --elem-bytes 4 --stride 2
check '^16 passes' "$bin" predict --model xe-hpg --elem-bytes 4 --stride 0 --op store
check 'agree on 19 facts, differ on 0' "$bin" compare h200 hopper
check '^32 passes: 32-way conflict' "$bin" predict --model h200 --elem-bytes 4 --stride 32
check '^1 pass: conflict-free' "$bin" predict --model nvidia-h200 --elem-bytes 4 --stride 33
check '^# device: NVIDIA H200$' "$bin" export h200 --format gem5
check '^Result: +not banked' "$bin" analyze xeon-skylake-avx512
if [ "$lint" = yes ]; then
	check 'kernel.cl:[0-9]+:[0-9]+: warning: load float tile\[32\]\[32\]: 32 passes' \
		"$bin" lint kernel.cl -k naive --local 32,32 --model h200
fi
exit $fail

#!/bin/sh
# SPDX-License-Identifier: MIT
# lint --measure (issue 22): each access's lane tables timed on a device. On the stub driver
# (tests/stub_icd.c: 32 banks x 4 B, time per step 2 + passes on a virtual clock) the measured
# slowdowns must follow the stub's model: the naive transpose's column read 34/3 = 11.3x, the
# padded and swizzled ones and the proposed fix about 1x, and the prediction (from the model's
# fitted time) must agree; a model of another geometry must be told it is wrong. Then the
# plan / --plan / --measured route, refusals, a stop, and a run on PoCL (structure only).
# Skips without LLVM.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
if ! grep -q 'define CB_HAVE_LLVM 1' "$top_builddir/config.h"; then
	echo "1..0 # SKIP clbanks was built without LLVM (lint)"
	exit 0
fi
mkdir -p "$TMP/icd" "$TMP/tmp"
echo "$top_builddir/tests/libcbstub.so" > "$TMP/icd/stub.icd"
OCL_ICD_VENDORS=$TMP/icd CLBANKS_TIMER=event TMPDIR=$TMP/tmp
export OCL_ICD_VENDORS CLBANKS_TIMER TMPDIR
K=$top_srcdir/tests/lint

n=0 # TAP: ok, notok and expect are tests/lib.sh's
lacks() { # DESCRIPTION REGEX: the last output has no such line
	if grep -Eq -- "$2" "$TMP/out"; then notok "$1"; else ok "$1"; fi
}

echo "1..30"
"$CLBANKS" --quick -q -o "$TMP/stub.json" >/dev/null 2>&1
CBSTUB_BANKS=64 "$CLBANKS" --quick -q -o "$TMP/stub64.json" >/dev/null 2>&1
T="$K/transpose.cl --local 32,8"
expect "naive: the column read measures the stub's 11.3x" 0 \
	'22:26: warning: load float tile\[32\]\[32\]: 32 passes, 32-way conflict \(minimum 1\); measured 1[01]\.[0-9]+x \(95%: [0-9.-]+\), model 1[01]\.[0-9]+x' \
	-- lint $T -k naive --measure --model "$TMP/stub.json"
lacks "naive: measurement and prediction agree" "the model is wrong"
if grep -Eq 'note: fix: .*measured (0\.9[5-9]|1\.0[0-5])x\)' "$TMP/out"; then
	ok "naive: the proposed fix measures about 1x"
else
	notok "naive: the proposed fix measures about 1x"
fi
if grep -Eq '^measured on clbanks stub GPU: [0-9.]+x .* over 2 accesses; the model predicts [0-9.]+x' "$TMP/out"; then
	ok "naive: the kernel's measured total beside the prediction"
else
	notok "naive: the kernel's measured total beside the prediction"
fi
CBSTUB_T0=0 "$CLBANKS" --quick -q -o "$TMP/stub-t0.json" >/dev/null 2>&1
expect "a stub whose time is its passes (CBSTUB_T0=0): the column read measures 32x" 0 \
	'22:26: warning: load float tile\[32\]\[32\]: 32 passes.*measured 3[12]\.[0-9]+x \(95%: [0-9.-]+\), model 3[12]\.[0-9]+x' \
	CBSTUB_T0=0 -- lint $T -k naive --measure --model "$TMP/stub-t0.json"
expect "padded: conflict-free, measured about 1x" 0 \
	'36:26: note: load float tile\[32\]\[33\]: 1 pass \(conflict-free\); measured (0\.9[5-9]|1\.0[0-5])x' \
	-- lint $T -k padded --measure --model "$TMP/stub.json"
expect "swizzled: measured about 1x" 0 \
	'50:26: note: load float tile\[32\]\[32\]: 1 pass \(conflict-free\); measured (0\.9[5-9]|1\.0[0-5])x' \
	-- lint $T -k swizzled --measure --model "$TMP/stub.json"
expect "without --model: the measured cost of each line" 0 \
	'22:26: warning: load float tile\[32\]\[32\]: measured 1[01]\.[0-9]+x the conflict-free time' \
	-- lint $T -k naive --measure
lacks "without --model: nothing predicted" "passes|predicts"
expect "without --model, --fail-on-conflict fails on a measured conflict" 5 \
	"a measured __local access conflicts" -- lint $T -k naive --measure --fail-on-conflict
expect "a model of another geometry is told it is wrong on that line" 0 \
	"22:26: note: measured 1[01]\.[0-9]+x where the model predicts [0-9.]+x: the model is wrong" \
	-- lint $T -k naive --measure --model "$TMP/stub64.json"
expect "JSON: measured and fixed_measured per access" 0 '"fixed_measured": \{' \
	-- lint $T -k naive --measure --model "$TMP/stub.json" -F json
cp "$TMP/out" "$TMP/m.json"
if grep -q '"slowdown": 1[01]\.' "$TMP/m.json" && grep -q '"ci95": \[' "$TMP/m.json" &&
	grep -q '"baseline": {' "$TMP/m.json" && grep -q '"tables": 4' "$TMP/m.json" &&
	grep -q '"device": "clbanks stub GPU"' "$TMP/m.json"; then
	ok "JSON: slowdown, ci95, tables, baseline and the device"
else
	notok "JSON: slowdown, ci95, tables, baseline and the device"
fi
expect "SARIF carries the measured figure" 0 'measured 1[01]\.[0-9]+x the conflict-free time on clbanks stub GPU' \
	-- lint $T -k naive --measure --model "$TMP/stub.json" -F sarif
expect "a store with inactive lanes, same-word stores merging, is measured" 0 \
	"16:15: note: store .*measured (0\.9[5-9]|1\.0[0-5])x" \
	-- lint "$K/reduce.cl" -k interleaved --local 256 --measure --model "$TMP/stub.json"
if grep -Eq "16:15: note: load .*measured [0-9.]+x" "$TMP/out"; then
	ok "a load with inactive lanes is measured (they read the first active lane's word)"
else
	notok "a load with inactive lanes is measured (they read the first active lane's word)"
fi
CBSTUB_STORE=32,4,0 "$CLBANKS" --quick -q --ops load,store -o "$TMP/stub-nobc.json" >/dev/null 2>&1
expect "without that, it is not measured, and says why" 0 \
	"16:15: note: store .*not measured: [0-9]+ of 32 lanes are inactive" CBSTUB_STORE=32,4,0 \
	-- lint "$K/reduce.cl" -k interleaved --local 256 --measure --model "$TMP/stub-nobc.json"
# The same in three steps: the tables as a plan, an ordinary run, lint --measured.
expect "--format plan writes the lane tables as a plan" 0 '"kind": "lint_reference"' \
	-- lint $T -k naive --model "$TMP/stub.json" --format plan
cp "$TMP/out" "$TMP/plan.json"
expect "clbanks --plan measures it" 0 "" -- --plan "$TMP/plan.json" -o "$TMP/measured.json" -q
expect "--measured reports it" 0 "22:26: warning: .*measured 1[01]\.[0-9]+x" \
	-- lint $T -k naive --model "$TMP/stub.json" --measured "$TMP/measured.json"
expect "--measured of another kernel's tables is refused" 2 "is not this kernel's lane table" \
	-- lint $T -k padded --model "$TMP/stub.json" --measured "$TMP/measured.json"
expect "--measured of a document that is not a lint run is refused" 2 "not this kernel's lane table|has no plan" \
	-- lint $T -k naive --model "$TMP/stub.json" --measured "$TMP/stub.json"
expect "--measure with --format plan: one or the other" 2 "one or the other" \
	-- lint $T -k naive --measure --format plan --model "$TMP/stub.json"
expect "--measure on every device is refused" 2 "one device, not 'all'" \
	-- lint $T -k naive --measure --device all
# A model of another sub-group size (issue 32): the device's own 16-lane tables are timed (a
# 16-lane column read on 16 banks: 16 passes, (2 + 16) / 3 = 6x on the stub) and the 32-lane
# model is priced at its own size beside them.
expect "a model of another sub-group size: measured at the device's 16 lanes" 0 \
	"^  measured on clbanks stub GPU, 16 lanes: [56]\.[0-9]+x the conflict-free time" \
	CBSTUB_SUBGROUP=16 CBSTUB_BANKS=16 -- lint $T -k naive --measure --model "$TMP/stub.json"
if grep -q '^  clbanks stub GPU, 32 lanes: 32 passes, 32-way (minimum 1)$' "$TMP/out"; then
	ok "... and the model priced at its own 32 lanes beside the measurement"
else
	notok "... and the model priced at its own 32 lanes beside the measurement"
fi
# A stop: exit 130 and no temporary document left behind.
CBSTUB_FAULT=slow "$CLBANKS" lint $T -k naive --measure --model "$TMP/stub.json" \
	--min-rounds 200 --max-rounds 200 >"$TMP/out" 2>&1 &
pid=$!
wait_for_handlers "$pid"
sleep 1
kill -INT "$pid"
wait "$pid"
got=$?
if [ "$got" -eq 130 ]; then ok "SIGINT during the measurement: exit 130"; else notok "SIGINT: exit $got"; fi
if [ -z "$(ls -A "$TMP/tmp")" ]; then ok "and nothing left in TMPDIR"; else notok "files left: $(ls "$TMP/tmp")"; fi
# PoCL: a CPU with no banks; the run must finish and report (its numbers are its own).
if [ -r /etc/OpenCL/vendors/pocl.icd ]; then
	mkdir -p "$TMP/pocl" "$TMP/pocl-cache"
	cp /etc/OpenCL/vendors/pocl.icd "$TMP/pocl/"
	# with the H200's model (issue 32): PoCL's own tables timed, the H200's 32 lanes priced
	expect "PoCL: measured on the CPU" 0 "^measured on .*: [0-9.]+x the conflict-free time" \
		OCL_ICD_VENDORS=$TMP/pocl CLBANKS_TIMER=auto POCL_CACHE_DIR=$TMP/pocl-cache \
		-- lint $T -k naive --measure --max-rounds 8 --model "$top_srcdir/results/nvidia/h200.json"
	if grep -q '^  NVIDIA H200, 32 lanes: 32 passes, 32-way (minimum 1)$' "$TMP/out" &&
	   grep -Eq '^  measured on .*, [0-9]+ lanes: ' "$TMP/out"; then
		ok "PoCL: the H200's model priced at its 32 lanes beside PoCL's measurement"
	else
		notok "PoCL: the H200's model priced at its 32 lanes beside PoCL's measurement"
	fi
else
	n=$((n + 1)); echo "ok $n # SKIP PoCL is not installed"
	n=$((n + 1)); echo "ok $n # SKIP PoCL is not installed"
fi

#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end runs on the stub OpenCL driver (tests/stub_icd.c): a "GPU" with a known bank model
# on a virtual clock. The whole pipeline -- device discovery, calibration, rounds, verification,
# inference -- must recover the geometry; injected driver faults must give their documented
# exit status and message and never leave an output file.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

mkdir -p "$TMP/icd"
echo "$top_builddir/tests/libcbstub.so" > "$TMP/icd/stub.icd"
OCL_ICD_VENDORS=$TMP/icd
export OCL_ICD_VENDORS

n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; sed 's/^/# /' "$TMP/out" | head -20; }
# expect DESCRIPTION STATUS REGEX [ENV=VALUE...] -- clbanks ARGS...
expect() {
	desc=$1 want=$2 regex=$3
	shift 3
	env_args=
	while [ "$1" != -- ]; do env_args="$env_args $1"; shift; done
	shift
	env $env_args "$CLBANKS" "$@" >"$TMP/out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ] && grep -Eq -- "$regex" "$TMP/out"; then
		ok "$desc"
	else
		notok "$desc (exit $got, expected $want and /$regex/)"
	fi
}
no_file() {
	if [ -e "$1" ] || ls -a "$(dirname "$1")" | grep -q '^\.clbanks-'; then notok "$2"; else ok "$2"; fi
}

echo "1..25"
expect "the stub driver is listed" 0 "clbanks stub GPU" -- --list
expect "an NVIDIA-like stub: banked, 32 x 4 B" 0 "Result: +banked, 32 banks x 4 bytes" -- --quick
expect "lanes per pass 32/32/32/16/8 recovered" 0 "8 B: 16 16 B: 8" -- --quick
expect "an Intel-like stub: 16 x 4 B, SIMD16" 0 "Result: +banked, 16 banks x 4 bytes" \
	CBSTUB_BANKS=16 CBSTUB_SUBGROUP=16 CBSTUB_LANES=16,16,16,16,16 -- --quick
expect "an AMD-like wave64 stub: 32 x 4 B and the vendor's bank count beside it" 0 \
	"reports 32 banks \(CL_DEVICE_LOCAL_MEM_BANKS_AMD\); measured 32" \
	CBSTUB_AMD=1 CBSTUB_SUBGROUP=64 -- --quick
expect "8-byte-wide banks: 32 x 8 B" 0 "Result: +banked, 32 banks x 8 bytes" \
	CBSTUB_WIDTH=8 CBSTUB_LANES=32,32,32,32,16 -- --quick
expect "an unreported sub-group size is measured" 0 "Sub-group: +32 lanes \(measured" \
	CBSTUB_REPORT_SUBGROUP=0 -- --quick
expect "a flat stub is not banked" 0 "Result: +not banked" CBSTUB_FLAT=1 -- --quick
expect "the latency regime runs one sub-group" 0 "latency regime, [0-9]+ rounds, 32 work-items" \
	-- --quick --regime latency
expect "the full default plan runs" 0 "Fit: +611 measurements" -- -q --format text
expect "global local memory is reported with a caveat" 0 "local memory is of type global" \
	CBSTUB_LOCAL_TYPE=global -- --quick
expect "--strict on a noisy run exits 5" 5 "--strict: the run has quality warnings" \
	CBSTUB_NOISE=0.1 -- --quick --max-rounds 6 --strict -q -o "$TMP/noisy.json"
check_noisy() { grep -q "did not reach a 95% CI" "$TMP/noisy.json"; }
if check_noisy; then ok "the document records the warning"; else notok "the document records the warning"; fi
expect "a timer resolution of 0 ns is a warning, 1 ns assumed" 0 "resolution of 0 ns; assuming 1 ns" \
	CBSTUB_TIMER_RES=0 -- --quick -o "$TMP/res0.json"

# Faults, each with its exit status, the failing call by name and number, and no output file.
expect "CL_OUT_OF_RESOURCES at enqueue: exit 4, call, name, number, hint" 4 \
	"clEnqueueNDRangeKernel: CL_OUT_OF_RESOURCES \(-5\)" CBSTUB_FAULT=enqueue:60:-5 -- --quick -o "$TMP/f1.json"
no_file "$TMP/f1.json" "no output after CL_OUT_OF_RESOURCES"
expect "CL_INVALID_WORK_GROUP_SIZE at enqueue" 4 "CL_INVALID_WORK_GROUP_SIZE \(-54\)" \
	CBSTUB_FAULT=enqueue:9:-54 -- --quick -o "$TMP/f2.json"
expect "a device lost while waiting (-36) gives the watchdog hint" 4 \
	"clWaitForEvents: CL_INVALID_COMMAND_QUEUE \(-36\).*|hint: this often means the driver reset" \
	CBSTUB_FAULT=wait:300:-36 -- --quick -o "$TMP/f3.json"
no_file "$TMP/f3.json" "no output after a lost device"
expect "profiling not available (-7): exit 4 at once" 4 \
	"clGetEventProfilingInfo: CL_PROFILING_INFO_NOT_AVAILABLE \(-7\)" CBSTUB_FAULT=profiling -- --quick -o "$TMP/f4.json"
expect "END <= START in every launch: exit 4" 4 "device timer gives no time" \
	CBSTUB_FAULT=zero-time -- --quick -o "$TMP/f5.json"
no_file "$TMP/f5.json" "no output after a broken timer"
expect "a build failure shows the driver's log" 4 "stub: error: the build fails on request" \
	CBSTUB_FAULT=build -- --quick -o "$TMP/f6.json"
expect "wrong kernel results fail verification" 4 "verification failed for the baseline" \
	CBSTUB_FAULT=wrong-result -- --quick -o "$TMP/f7.json"
no_file "$TMP/f7.json" "no output after a verification failure"

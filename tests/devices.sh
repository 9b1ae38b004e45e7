#!/bin/sh
# SPDX-License-Identifier: MIT
# --device by type and by platform, and --list with platforms that have no devices, on private
# OCL_ICD_VENDORS folders (the machine's own platform order is never touched): the stub driver
# (a GPU), and where installed PoCL (a CPU), Mesa's rusticl and Clover (no devices without
# RUSTICL_ENABLE and a supported GPU). Nothing is measured: a --local-mem beyond every device
# stops each run (exit 2) right after the device is chosen, which the "measuring" line names.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; sed 's/^/# /' "$TMP/out" | head -20; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# expect DESCRIPTION STATUS REGEX VENDORS [ENV=VALUE...] -- clbanks ARGS...
expect() {
	desc=$1 want=$2 regex=$3 vendors=$4
	shift 4
	env_args=
	while [ "$1" != -- ]; do env_args="$env_args $1"; shift; done
	shift
	env OCL_ICD_VENDORS="$vendors" $env_args "$CLBANKS" "$@" >"$TMP/out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ] && grep -Eq -- "$regex" "$TMP/out"; then
		ok "$desc"
	else
		notok "$desc (exit $got, expected $want and /$regex/)"
	fi
}

CHOOSE="--local-mem 1073741824 -o $TMP/x.json"
STUB=$TMP/stub
mkdir -p "$STUB"
echo "$top_builddir/tests/libcbstub.so" > "$STUB/stub.icd"
# The stub first, then PoCL, rusticl and Clover where their ICD files exist.
ALL=$TMP/all
mkdir -p "$ALL"
echo "$top_builddir/tests/libcbstub.so" > "$ALL/a-stub.icd"
have_pocl=no have_mesa=no
[ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$ALL/b-pocl.icd" &&
	have_pocl=yes
[ -f /etc/OpenCL/vendors/rusticl.icd ] && [ -f /etc/OpenCL/vendors/mesa.icd ] &&
	cp /etc/OpenCL/vendors/rusticl.icd "$ALL/c-rusticl.icd" &&
	cp /etc/OpenCL/vendors/mesa.icd "$ALL/d-mesa.icd" && have_mesa=yes
unset RUSTICL_ENABLE

echo "1..22"
expect "the stub GPU by type" 2 "measuring clbanks stub GPU \(clbanks stub\)" "$STUB" -- --device gpu $CHOOSE
expect "types in any case" 2 "measuring clbanks stub GPU" "$STUB" -- --device GPU $CHOOSE
expect "no CPU: exit 3, naming the type and listing the devices" 3 \
	"no device of type cpu; 1 device is available" "$STUB" -- --device cpu $CHOOSE
expect "no accelerator: exit 3" 3 "no device of type accelerator" "$STUB" -- --device accelerator $CHOOSE
expect "several GPUs: the first, and the others named" 2 \
	"2 devices are GPUs; measuring the first, 0 \(0:0\) clbanks stub GPU \(the others: 0:1" \
	"$STUB" CBSTUB_DEVICES=2 -- --device gpu $CHOOSE
expect "a device name matching two devices is ambiguous" 2 "is ambiguous; it matches 2 devices" \
	"$STUB" CBSTUB_DEVICES=2 -- --device "stub GPU" $CHOOSE
expect "the platform by its ICD suffix" 2 "measuring clbanks stub GPU" "$STUB" -- --device STUB $CHOOSE
expect "a platform without devices is listed as such, exit 3" 3 \
	"^-  +0:- +- +no devices \(clbanks stub\)" "$STUB" CBSTUB_DEVICES=0 -- --list
expect "and the error says there is no device" 3 "no OpenCL device found on 1 platform" \
	"$STUB" CBSTUB_DEVICES=0 -- --list
expect "and a run there: exit 3" 3 "no OpenCL device found on 1 platform" \
	"$STUB" CBSTUB_DEVICES=0 -- --device gpu $CHOOSE
expect "nothing matches: exit 3" 3 "no device or platform matches 'nosuch'; 1 device is available" \
	"$STUB" -- --device nosuch $CHOOSE
# From here on real drivers are loaded: see no_leak_check_in_drivers in lib.sh.
no_leak_check_in_drivers
if [ $have_pocl = yes ]; then
	expect "PoCL by type" 2 "measuring .* \(Portable Computing Language\)" "$ALL" -- --device cpu $CHOOSE
	expect "PoCL by platform name" 2 "measuring .* \(Portable Computing Language\)" "$ALL" -- --device pocl $CHOOSE
	expect "by platform vendor" 2 "measuring .* \(Portable Computing Language\)" "$ALL" -- --device "pocl project" $CHOOSE
	expect "the GPU among them" 2 "measuring clbanks stub GPU" "$ALL" -- --device gpu $CHOOSE
	expect "P:D of the second platform" 2 "measuring .* \(Portable Computing Language\)" "$ALL" -- --device 1:0 $CHOOSE
else
	for t in "PoCL by type" "PoCL by platform name" "by platform vendor" "the GPU among them" "P:D"; do
		skip "$t" "no PoCL ICD"
	done
fi
if [ $have_mesa = yes ] && [ $have_pocl = yes ]; then
	expect "--list shows rusticl without devices" 0 "^-  +2:- +- +no devices \(rusticl\)" "$ALL" -- --list
	expect "--list shows Clover without devices" 0 "^-  +3:- +- +no devices \(Clover\)" "$ALL" -- --list
	expect "the devices keep their P:D" 0 "^1 +1:0 +CPU" "$ALL" -- --list
	expect "rusticl by name: it has no devices, exit 3" 3 "platform 2 \(rusticl\) has no devices" \
		"$ALL" -- --device rusticl $CHOOSE
	expect "2:0: its platform has no devices" 3 "no device 2:0: platform 2 \(rusticl\) has no devices" \
		"$ALL" -- --device 2:0 $CHOOSE
	expect "a platform vendor of two platforms is ambiguous, exit 2" 2 \
		"'mesa' is ambiguous; it matches 2 platforms" "$ALL" -- --device mesa $CHOOSE
else
	for t in rusticl Clover "P:D kept" "rusticl by name" "2:0" "mesa"; do
		skip "$t" "no PoCL or no mesa-opencl-icd"
	done
fi

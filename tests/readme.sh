#!/bin/sh
# SPDX-License-Identifier: MIT
# Every example command of README.md, run: the lines of its indented code blocks that run
# clbanks ("./clbanks ...", "$ ./clbanks ...", "clbanks ...", "mkdir runs && ./clbanks ..."),
# in README order, in a scratch directory holding a copy of results/, tests/lint/ and
# tests/data/. The first block of "Using it" runs as a user would run it on any machine: on
# the machine's own OpenCL platforms (PoCL in make check), no stub, each line as written; only
# CLBANKS_GROUPS_PER_CU=1 keeps a CPU's runs short (SKIP without a platform). The other
# examples run with the stub OpenCL driver posing as the "NVIDIA H200" that the GPU examples
# name (so h200.json is what "./clbanks --device NVIDIA -o h200.json" writes there), with
# tests/lint/transpose.cl as "kernel.cl". Each must exit 0; a "$ " example's output must be
# the lines that follow it in README.md. Skipped, with the reason: the quick start's install
# line, lint without LLVM, plot without gnuplot, srun without Slurm (then its command runs
# once here, as srun runs it on each node; tests/slurm.test runs it under Slurm).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

README=$top_srcdir/README.md
W=$TMP/w
mkdir -p "$W/tests" "$TMP/bin" "$TMP/icd"
cp -R "$top_srcdir/results" "$W/results" && rm -f "$W/results/strides.svg"
cp -R "$top_srcdir/tests/lint" "$W/tests/lint"
cp -R "$top_srcdir/tests/data" "$W/tests/data" # the synthetic models of the vendors example
cp "$top_srcdir/tests/lint/transpose.cl" "$W/kernel.cl"
chmod -R u+w "$W" # make distcheck's sources are read-only
printf '#!/bin/sh\nexec "%s" "$@"\n' "$CLBANKS" >"$TMP/bin/clbanks"
chmod +x "$TMP/bin/clbanks"
cp "$TMP/bin/clbanks" "$W/clbanks"
echo "$top_builddir/tests/libcbstub.so" >"$TMP/icd/stub.icd"
# The machine's own platforms, for the first block (before the stub takes their place).
have_cl=no
have_opencl && have_cl=yes
icd_set=${OCL_ICD_VENDORS+x} icd=${OCL_ICD_VENDORS-}
PATH=$TMP/bin:$PATH OCL_ICD_VENDORS=$TMP/icd CBSTUB_NAME="NVIDIA H200" CLBANKS_TIMER=event
export PATH OCL_ICD_VENDORS CBSTUB_NAME CLBANKS_TIMER
# CMD in $W as a user runs it: the machine's platforms, none of the stub's variables.
as_user() {
	(
		unset CBSTUB_NAME CLBANKS_TIMER
		if [ -n "$icd_set" ]; then OCL_ICD_VENDORS=$icd; export OCL_ICD_VENDORS
		else unset OCL_ICD_VENDORS; fi
		CLBANKS_GROUPS_PER_CU=1
		export CLBANKS_GROUPS_PER_CU
		cd "$W" && sh -c "$1"
	)
}
have_ll=no
grep -q 'define CB_HAVE_LLVM 1' "$top_builddir/config.h" && have_ll=yes
have_gp=no
command -v gnuplot >/dev/null 2>&1 && have_gp=yes

# The examples: "LINE<TAB>MODE<TAB>COMMAND" for each (MODE: user for the first block of
# "Using it", else stub), and for a "$ " one the output that follows it in $TMP/want.LINE (the
# block's next lines up to the next "$ " line or the block's end).
awk -v dir="$TMP" '
	function flush() { if (want != "") close(want); want = "" }
	/^## / { using = ($0 ~ /^## Using it/) }
	/^    / {
		line = substr($0, 5)
		mode = using && first != 2 ? "user" : "stub"
		if (mode == "user") first = 1
		if (line ~ /^\$ /) { flush(); cmd = substr(line, 3); want = dir "/want." NR
			printf "" > want; print NR "\t" mode "\t" cmd; next }
		if (want != "") { print line >> want; next }
		if (line ~ /^(\.\/)?clbanks / || line ~ /&& \.\/clbanks / || line ~ /^srun .*clbanks/) {
			sub(/  +# .*$/, "", line); print NR "\t" mode "\t" line }
		next
	}
	/^[^ ]/ { if (first == 1) first = 2 }
	{ flush() }' "$README" >"$TMP/examples"
total=$(wc -l <"$TMP/examples")
[ "$total" -ge 20 ] || { echo "Bail out! only $total examples found in README.md"; exit 1; }
nuser=$(grep -c '	user	' "$TMP/examples")
[ "$nuser" -ge 8 ] || { echo "Bail out! only $nuser examples in the first block of Using it"; exit 1; }
echo "1..$total"
n=0
while IFS='	' read -r at mode cmd; do
	n=$((n + 1))
	why=
	[ "$mode" = user ] && [ $have_cl = no ] && why="no OpenCL platform"
	case $cmd in
	*apt-get*) why="installs packages and builds (what CI does)" ;;
	*" lint "*) [ $have_ll = yes ] || why="built without LLVM (lint)" ;;
	*" plot "*) [ $have_gp = yes ] || why="no gnuplot" ;;
	esac
	if [ -n "$why" ]; then
		echo "ok $n - README.md:$at: $cmd # SKIP $why"
		continue
	fi
	run=$cmd
	case $cmd in
	srun*)
		if ! command -v srun >/dev/null 2>&1 || ! sinfo -h >/dev/null 2>&1; then
			# What srun runs on each node, run once here as node "node1".
			run=$(printf '%s\n' "$cmd" | sed "s/^srun .* sh -c '\(.*\)'\$/SLURMD_NODENAME=node1 sh -c '\1'/")
		fi ;;
	esac
	if [ "$mode" = user ]; then
		as_user "$run" >"$TMP/out" 2>"$TMP/err" </dev/null
	else
		(cd "$W" && sh -c "$run") >"$TMP/out" 2>"$TMP/err" </dev/null
	fi
	got=$?
	if [ $got -ne 0 ]; then
		echo "not ok $n - README.md:$at: $cmd: exit $got"
		sed 's/^/# /' "$TMP/err" | tail -8
	elif [ -f "$TMP/want.$at" ] && ! cmp -s "$TMP/want.$at" "$TMP/out"; then
		echo "not ok $n - README.md:$at: $cmd: the output is not README's"
		diff "$TMP/want.$at" "$TMP/out" | sed 's/^/# /' | head -20
	else
		[ "$run" = "$cmd" ] || cmd="$cmd (its command once here: no Slurm)"
		[ "$mode" = user ] && cmd="$cmd (as a user: the machine's device, no stub)"
		echo "ok $n - README.md:$at: $cmd"
	fi
done <"$TMP/examples"

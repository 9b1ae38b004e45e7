#!/bin/sh
# SPDX-License-Identifier: MIT
# A hostile user: documents that try to run commands, outputs that cannot be written, special
# files, signals at awkward moments, inputs without end. Each case is a finding of the security
# issue (tests/README.md maps them); each must give its documented exit status and message and
# leave nothing half-written. Runs devices through the stub driver (tests/stub_icd.c), so no
# OpenCL platform is needed; the few PoCL cases skip without one.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; [ -f "$TMP/out" ] && sed 's/^/# /' "$TMP/out" | head -15; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# expect DESCRIPTION STATUS REGEX COMMAND...: exit status and output (stdout + stderr)
expect() {
	desc=$1 want=$2 regex=$3
	shift 3
	"$@" >"$TMP/out" 2>&1 </dev/null
	got=$?
	# An empty REGEX means: no output at all.
	if [ "$got" -eq "$want" ] && { { [ -z "$regex" ] && [ ! -s "$TMP/out" ]; } ||
		{ [ -n "$regex" ] && grep -Eq -- "$regex" "$TMP/out"; }; }; then
		ok "$desc"
	else
		notok "$desc (exit $got, expected $want and /$regex/)"
	fi
}
# nothing DESCRIPTION PATH: neither PATH nor a temporary file of clbanks beside it
nothing() {
	if [ -e "$2" ] || [ -L "$2" ] || has_temp "$(dirname "$2")"; then
		notok "$1: $2 or a temporary file exists"
	else
		ok "$1"
	fi
}
assert() { # DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}

H200=$top_srcdir/results/nvidia/h200.json
mkdir -p "$TMP/icd" "$TMP/w"
echo "$top_builddir/tests/libcbstub.so" > "$TMP/icd/stub.icd"
STUB="env OCL_ICD_VENDORS=$TMP/icd CLBANKS_TIMER=event"
have_gp=no
command -v gnuplot >/dev/null 2>&1 && have_gp=yes
have_strace=no
command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null && have_strace=yes

# doc NAME JSON-STRING: H200's document with device.name set to a JSON string literal
doc() {
	value=$(printf '%s' "$2" | sed 's/[\\&|]/\\&/g')
	sed "s|\"name\": \"NVIDIA H200\"|\"name\": $value|" "$H200" > "$TMP/$1"
}

echo "1..111"

# -- plot: a document is data, never a gnuplot command ---------------------------------------
doc inject.json '"x\n!touch '"$TMP"'/pwned\n#"'
doc inject2.json "\"x') ; system('touch $TMP/pwned2') ; print('\""
nl='
'
sed 's|"name": "NVIDIA H200",||' "$H200" > "$TMP/w/a$nl!touch pwned3$nl#.json"
if [ $have_gp = yes ]; then
	expect "plot: a device name with a newline and !cmd is only a title" 0 '' \
		"$CLBANKS" plot "$TMP/inject.json" -o "$TMP/i.svg"
	assert "plot: the command in the device name did not run" test ! -e "$TMP/pwned"
	expect "plot: a device name with system() is only a title" 0 '' \
		"$CLBANKS" plot "$TMP/inject2.json" -o "$TMP/i2.svg"
	assert "plot: system() in the device name did not run" test ! -e "$TMP/pwned2"
	expect "plot: a file name with a newline and !cmd (no device name) is only a title" 0 '' \
		sh -c 'cd "$1" && exec "$0" plot "a$2!touch pwned3$2#.json" -o i3.svg' "$CLBANKS" "$TMP/w" "$nl"
	assert "plot: the command in the file name did not run" test ! -e "$TMP/w/pwned3"
	assert "plot: the title shows the name with unsafe characters replaced" \
		grep -q 'x??touch' "$TMP/i.svg"
else
	for i in 1 2 3 4 5 6 7; do skip "plot injection case $i" "no gnuplot"; done
fi

# -- plot: a failed or truncated picture is never committed ----------------------------------
expect "plot: gnuplot that writes nothing (/bin/true) is exit 4" 4 "wrote no picture" \
	env CLBANKS_GNUPLOT=/bin/true "$CLBANKS" plot "$H200" -o "$TMP/t.svg"
nothing "plot: nothing left after an empty picture" "$TMP/t.svg"
expect "plot: gnuplot failing is exit 4" 4 "failed \\(exit status 1\\)" \
	env CLBANKS_GNUPLOT=/bin/false "$CLBANKS" plot "$H200" -o "$TMP/f.svg"
set -- ; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do set -- "$@" "$H200"; done
expect "plot: gnuplot exiting before reading 20 documents is exit 4, not SIGPIPE" 4 "wrote no picture" \
	env CLBANKS_GNUPLOT=/bin/true "$CLBANKS" plot "$@" -o "$TMP/p.svg"
nothing "plot: nothing left after a broken pipe" "$TMP/p.svg"
if [ $have_gp = yes ]; then
	expect "plot: a file-size limit (a full disk) is exit 4 with the reason" 4 "File too large" \
		sh -c "ulimit -f 8; exec \"\$0\" plot \"\$1\" -o \"\$2\"" "$CLBANKS" "$H200" "$TMP/full.svg"
	nothing "plot: nothing left after a failed write" "$TMP/full.svg"
else
	skip "plot on a full disk" "no gnuplot"; skip "plot on a full disk leaves nothing" "no gnuplot"
fi
expect "plot: an output name that names no picture format is refused" 2 "cannot tell the picture format" \
	"$CLBANKS" plot "$H200" -o "$TMP/x.jpg"

# -- standard output: every write error is loud ----------------------------------------------
for cmd in "analyze $H200" "analyze $H200 --format csv" "plan" "--help" "--version" \
	   "compare $H200" "predict --model $H200 --elem-bytes 4 --lanes $(seq -s, 0 4 124)" \
	   "analyze $H200 -o -"; do
	expect "clbanks $cmd > /dev/full: exit 4" 4 "write error on standard output: No space left on device" \
		sh -c "exec \"\$0\" $cmd > /dev/full" "$CLBANKS"
done
expect "clbanks --list > /dev/full: exit 4" 4 "write error on standard output" \
	sh -c "exec $STUB \"\$0\" --list > /dev/full" "$CLBANKS"
expect "run -o - > /dev/full: exit 4, the measurement is not lost silently" 4 \
	"write error on standard output" sh -c "exec $STUB \"\$0\" --quick -o - > /dev/full" "$CLBANKS"
expect "compare -o /dev/full names the file and the reason" 4 "cannot write '/dev/full': No space left" \
	"$CLBANKS" compare "$H200" -o /dev/full

# -- special files at -o: written in place, never replaced -----------------------------------
expect "-o /dev/null --force writes into the device" 0 '' "$CLBANKS" analyze "$H200" -o /dev/null -f
assert "/dev/null is still a character device" test -c /dev/null
mkfifo "$TMP/fifo"
cat "$TMP/fifo" > "$TMP/from-fifo" &
expect "-o FIFO writes into the FIFO" 0 '' "$CLBANKS" analyze "$H200" -o "$TMP/fifo"
wait
assert "the FIFO stays a FIFO and the reader got the report" \
	sh -c "test -p '$TMP/fifo' && grep -q '^Result:' '$TMP/from-fifo'"
ln -s "$TMP/fifo" "$TMP/to-fifo"
cat "$TMP/fifo" > /dev/null &
expect "-o SYMLINK-TO-FIFO --force writes through the link" 0 '' \
	"$CLBANKS" analyze "$H200" -o "$TMP/to-fifo" -f
wait
assert "the link and the FIFO survive" sh -c "test -L '$TMP/to-fifo' && test -p '$TMP/fifo'"
echo old > "$TMP/real.txt"
ln -s "$TMP/real.txt" "$TMP/to-real.txt"
expect "-o SYMLINK-TO-FILE --force replaces the file it points to" 0 '' \
	"$CLBANKS" analyze "$H200" -o "$TMP/to-real.txt" -f
assert "the link stays a link to the new content" \
	sh -c "test -L '$TMP/to-real.txt' && grep -q '^Result:' '$TMP/real.txt'"
ln -s "$TMP/nowhere" "$TMP/dangling.txt"
expect "a dangling symlink at -o is not replaced without --force" 2 "dangling symbolic link" \
	"$CLBANKS" analyze "$H200" -o "$TMP/dangling.txt"
assert "the dangling link is untouched" test -L "$TMP/dangling.txt"
expect "-o '' is refused before any work" 2 "empty value for --output" "$CLBANKS" plan -o ''
long=$(printf '%0250d' 0 | tr 0 a).txt
expect "a 250-character output name works (short temporary names)" 0 '' \
	"$CLBANKS" analyze "$H200" -o "$TMP/${long#aaaa}"

# -- concurrent writers: the second one never silently replaces the first ---------------------
# Wait until process PID blocks opening a FIFO (Linux: its kernel wait channel), so the steps
# that follow do not race a process still starting on a busy machine; elsewhere, a pause.
wait_on_fifo() { # PID
	tries=0
	while [ $tries -lt 600 ] && [ -r "/proc/$1/wchan" ]; do
		chan=$(cat "/proc/$1/wchan" 2>/dev/null)
		[ "$chan" = wait_for_partner ] && return 0
		# A running process reads 0 too; 5 s of it means no wait channels here (a
		# container, a hardened kernel): a pause instead.
		case $chan in ''|0) [ $tries -ge 50 ] && break ;; esac
		sleep 0.1
		tries=$((tries + 1))
	done
	sleep 1
}
mkfifo "$TMP/slow"
"$CLBANKS" analyze "$TMP/slow" -o "$TMP/race.txt" > "$TMP/out" 2>&1 &
pid=$!
wait_on_fifo $pid
echo first > "$TMP/race.txt"
cat "$H200" > "$TMP/slow"
wait $pid
got=$?
if [ $got -eq 2 ] && grep -q "appeared while clbanks was working; not replaced (use --force)" "$TMP/out" &&
   grep -qx first "$TMP/race.txt"; then
	ok "an output that appears while working is not replaced (exit 2)"
else
	notok "an output that appears while working is not replaced (exit $got)"
fi

# -- signals: every command stops, exits 128+N and writes nothing -----------------------------
for sig in TERM HUP INT; do
	case $sig in TERM) want=143 ;; HUP) want=129 ;; INT) want=130 ;; esac
	rm -f "$TMP/slow"
	mkfifo "$TMP/slow"
	"$CLBANKS" analyze "$TMP/slow" -o "$TMP/sig.txt" > "$TMP/out" 2>&1 &
	pid=$!
	wait_for_handlers $pid
	wait_on_fifo $pid
	kill -$sig $pid
	wait $pid
	got=$?
	if [ $got -eq $want ] && grep -q "interrupted by SIG$sig" "$TMP/out" && [ ! -e "$TMP/sig.txt" ]; then
		ok "analyze blocked on a FIFO: SIG$sig gives exit $want and no output"
	else
		notok "analyze blocked on a FIFO: SIG$sig (exit $got, expected $want)"
	fi
done
if [ $have_strace = yes ]; then
	# The commit's fsync is made slow; two SIGINTs arrive while the temporary file exists.
	strace -f -o /dev/null -e inject=fsync:delay_enter=3000000 \
		"$CLBANKS" analyze "$H200" -o "$TMP/twice.txt" > "$TMP/out" 2>&1 &
	pid=$!
	# Both signals must land while the temporary file exists: wait for it (fsync sleeps 3 s).
	tries=0
	until has_temp "$TMP" || [ $tries -ge 600 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	child=$(pgrep -P $pid -x clbanks)
	kill -INT $child
	sleep 0.2
	kill -INT $child
	wait $pid
	nothing "a second SIGINT during the commit removes the temporary file" "$TMP/twice.txt"
else
	skip "a second SIGINT during the commit" "no strace"
fi
expect "a file-size limit during a run's commit is exit 4, not a killed process" 4 "File too large" \
	sh -c "ulimit -f 8; exec $STUB \"\$0\" --quick -q -o \"\$1\"" "$CLBANKS" "$TMP/xfsz.json"
nothing "nothing left after the file-size limit" "$TMP/xfsz.json"

# -- inputs without end, special files as inputs ----------------------------------------------
expect "an endless document on standard input is capped (exit 2)" 2 \
	"standard input: too large \\(more than 268435456 bytes\\)" \
	sh -c "yes '0,' | exec \"\$0\" analyze -" "$CLBANKS"
expect "/dev/zero as a document is binary data, said so (exit 2)" 2 \
	"/dev/zero: binary data \\(a NUL byte at offset 0\\)" "$CLBANKS" analyze /dev/zero
if sh -c 'ulimit -v 80000 && exec "$0" --version' "$CLBANKS" >/dev/null 2>&1; then
	# An unterminated 20 MB string: jansson holds it whole, under an 80 MB address space.
	{ printf '["'; yes A | tr -d '\n' | head -c 20000000; } > "$TMP/big.json"
	expect "out of memory is said as such (exit 4)" 4 "out of memory" \
		sh -c "ulimit -v 80000; exec \"\$0\" analyze \"\$1\"" "$CLBANKS" "$TMP/big.json"
	rm -f "$TMP/big.json"
else
	skip "out of memory is said as such" "the binary cannot run under a memory limit (sanitizers)"
fi
mkdir -p "$TMP/k"
ln -s /dev/zero "$TMP/k/chase.cl"
expect "--kernel-dir with chase.cl -> /dev/zero is refused (exit 2)" 2 "not a regular file" \
	$STUB "$CLBANKS" --quick --kernel-dir "$TMP/k"
rm "$TMP/k/chase.cl"
head -c 1100000 /dev/zero | tr '\0' ' ' > "$TMP/k/chase.cl"
expect "--kernel-dir with a kernel over 1 MiB is refused (exit 2)" 2 "too large" \
	$STUB "$CLBANKS" --quick --kernel-dir "$TMP/k"

# -- values that could never work, or that were silently ignored ------------------------------
expect "--subgroup 300 is refused with a range that holds" 2 "expected an integer from 4 to 256" \
	"$CLBANKS" plan --subgroup 300
expect "-d '' is refused" 2 "empty value for --device" "$CLBANKS" -d ''
expect "--kernel-dir '' is refused" 2 "empty value for --kernel-dir" "$CLBANKS" --kernel-dir ''
expect "predict honours -o" 0 '' "$CLBANKS" predict --model "$H200" --elem-bytes 4 \
	--lanes "$(seq -s, 0 4 124)" -o "$TMP/predict.txt"
assert "predict wrote its answer to the file" grep -q "^1 pass: conflict-free" "$TMP/predict.txt"
expect "--list honours -o" 0 '' $STUB "$CLBANKS" --list -o "$TMP/list.txt"
assert "the device list is in the file" grep -q "clbanks stub GPU" "$TMP/list.txt"

# -- documents: every field validated, every string printed safely ---------------------------
printf '{"format":"clbanks","format_version":1,"device":{"subgroup_size":4},"measurements":[{"op":"load","elem_bytes":4,"lanes":[0,4,8,9223372036854775807],"ns_per_access":1}]}' > "$TMP/huge-off.json"
expect "a lane offset of 2^63-1 is outside local memory, with its field path" 2 \
	"measurements\\[0\\].lanes\\[3\\] = 9223372036854775807 lies outside local memory" \
	"$CLBANKS" analyze "$TMP/huge-off.json"
printf '{"format":"clbanks","format_version":1,"device":{"subgroup_size":4},"measurements":[{"op":"load","elem_bytes":4,"lanes":[0,4,8,13],"ns_per_access":1}]}' > "$TMP/unaligned.json"
expect "an unaligned lane offset is refused by analyze" 2 "lanes\\[3\\] = 13 is not a multiple of the element size" \
	"$CLBANKS" analyze "$TMP/unaligned.json"
expect "an unaligned lane offset is refused by predict" 2 "is not a multiple of the element size" \
	"$CLBANKS" predict --model "$H200" --elem-bytes 4 --lanes "$(seq -s, 1 4 125)"
sed 's/"warnings": \[\]/"warnings": [7]/' "$H200" > "$TMP/w7.json"
expect "a warning that is not a string is refused" 2 "quality.warnings\\[0\\] is an integer, expected a string" \
	"$CLBANKS" analyze "$TMP/w7.json" --strict
sed 's/"warnings": \[\]/"warnings": {}/' "$H200" > "$TMP/wobj.json"
expect "warnings that are not an array are refused (--strict cannot pass)" 2 \
	"quality.warnings is an object, expected an array of strings" "$CLBANKS" analyze "$TMP/wobj.json" --strict
sed 's/"subgroups_per_cu": 512.0/"subgroups_per_cu": 1e308/' "$H200" > "$TMP/inf.json"
expect "an absurd run.subgroups_per_cu is refused (no 'inf B' in reports)" 2 "run.subgroups_per_cu must be a number" \
	"$CLBANKS" analyze "$TMP/inf.json"
doc esc.json '"\u001b[31mRED\u001b[0m"'
"$CLBANKS" analyze "$TMP/esc.json" > "$TMP/esc.txt" 2>&1
assert "control characters from a document are escaped in the text report" \
	sh -c "grep -q 'x1b\\[31mRED' '$TMP/esc.txt' && ! grep -q \"\$(printf '\\033')\" '$TMP/esc.txt'"
"$CLBANKS" analyze "$TMP/esc.json" --format csv > "$TMP/esc.csv" 2>&1
assert "control characters from a document are escaped in CSV" \
	sh -c "grep -q 'x1b\\[31mRED' '$TMP/esc.csv' && ! grep -q \"\$(printf '\\033')\" '$TMP/esc.csv'"
sed 's/"op": "load"/"op": "\\u001b[2J"/' "$H200" > "$TMP/escop.json"
"$CLBANKS" analyze "$TMP/escop.json" > "$TMP/escop.txt" 2>&1
assert "control characters from a document are escaped in error messages" \
	sh -c "grep -q 'x1b\\[2J' '$TMP/escop.txt' && ! grep -q \"\$(printf '\\033')\" '$TMP/escop.txt'"
doc formula.json '"=HYPERLINK(\"http://x\")"'
"$CLBANKS" analyze "$TMP/formula.json" --format csv > "$TMP/formula.csv"
assert "a document string that looks like a spreadsheet formula is text in CSV" \
	grep -q "^2,\"'=HYPERLINK" "$TMP/formula.csv"
expect "an unreadable path says what is wrong, not 'invalid JSON'" 2 "nonexistent/doc.json: No such file or directory" \
	"$CLBANKS" analyze "$TMP/nonexistent/doc.json"

# -- PoCL with an unwritable HOME: a hint, not a bare 'no device' ----------------------------
if have_opencl && "$CLBANKS" --list 2>/dev/null | grep -q "Portable Computing Language"; then
	expect "PoCL without a writable cache directory gets a hint (exit 3)" 3 "POCL_CACHE_DIR" \
		env -u POCL_CACHE_DIR -u XDG_CACHE_HOME HOME=/dev/null "$CLBANKS" --list
else
	skip "PoCL without a writable cache directory gets a hint" "no PoCL"
fi

# issue 23 (ocl helper)
# -- a driver that never returns: --timeout and one SIGTERM end the run ------------------------
# (timeout bounds each case: before, they ran for ever and swallowed the first SIGTERM)
for f in build:clBuildProgram devices:clGetDeviceIDs; do
	expect "a driver hanging in ${f#*:}: --timeout ends the run (exit 4), naming the call" 4 \
		"watchdog: .*${f#*:}.* did not finish within ten times --timeout" \
		$STUB CBSTUB_FAULT=hang-${f%%:*} timeout -k 10 120 "$CLBANKS" --quick --timeout 1 -o "$TMP/hang.json"
	nothing "no output after the hang in ${f#*:}" "$TMP/hang.json"
done
for f in build:clBuildProgram devices:clGetDeviceIDs; do
	: >"$TMP/out"
	# The signal goes to clbanks itself (env execs it): timeout(1) would send a second one.
	$STUB CBSTUB_FAULT=hang-${f%%:*} "$CLBANKS" --quick -o "$TMP/hang.json" \
		>"$TMP/out" 2>&1 </dev/null &
	pid=$!
	wait_for_line "$TMP/out" "stub: hanging in" 600
	kill -TERM $pid
	waited=0
	while kill -0 $pid 2>/dev/null && [ $waited -lt 300 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	kill -KILL $pid 2>/dev/null # still running after 30 s: the signal was swallowed
	wait $pid
	got=$?
	assert "one SIGTERM ends a run hung in ${f#*:} (exit $got, expected 143)" \
		sh -c "[ $got -eq 143 ] && grep -q 'interrupted by SIGTERM, but .*${f#*:}.* did not return' '$TMP/out'"
done
nothing "no output after SIGTERM in a hung driver call" "$TMP/hang.json"

# -- absurd driver values: the document written is one its readers read ----------------------
expect "absurd work-group size, clock and compute units: exit 0, each said to be unknown" 0 \
	"CL_DEVICE_MAX_WORK_GROUP_SIZE = 18446744073709551615, outside 0 to 1000000000; recorded as unknown" \
	$STUB CBSTUB_WG=18446744073709551615 CBSTUB_CLOCK=4000000000 CBSTUB_UNITS=20000000 \
	"$CLBANKS" --quick --ops load -o "$TMP/absurd.json"
assert "the document leaves them out and lists them in quality.warnings" sh -c "
	! grep -Eq '\"(max_work_group_size|max_clock_mhz|compute_units|slm_units)\"' '$TMP/absurd.json' &&
	grep -q 'CL_DEVICE_MAX_CLOCK_FREQUENCY = 4000000000, outside' '$TMP/absurd.json' &&
	grep -q 'CL_DEVICE_MAX_COMPUTE_UNITS = 20000000, outside' '$TMP/absurd.json'"
expect "analyze reads the document a run with absurd values wrote" 0 "Result: +banked" \
	"$CLBANKS" analyze "$TMP/absurd.json"
expect "compare reads it" 0 "clbanks stub GPU" env COLUMNS=200 "$CLBANKS" compare "$TMP/absurd.json" "$H200"
expect "predict reads it" 0 "conflict-free" \
	"$CLBANKS" predict --model "$TMP/absurd.json" --elem-bytes 4 --stride 1
$STUB CBSTUB_WG=2000000000 "$CLBANKS" --quick --ops load -q -o "$TMP/wg2e9.json" >/dev/null 2>&1
expect "a work-group size of 2e9: the document is read back" 0 "Result: +banked" \
	"$CLBANKS" analyze "$TMP/wg2e9.json"
$STUB CBSTUB_NAME="$(printf 'GPU \377\376 x')" "$CLBANKS" --quick --ops load -q -o "$TMP/name.json" >/dev/null 2>&1
expect "a device name that is not UTF-8 is kept, its bad bytes as '?'" 0 "Device: +GPU \\?\\? x" \
	"$CLBANKS" analyze "$TMP/name.json"

# issue 23 (cli helper) ------------------------------------------------------------------------
# 6: a symbolic link into a read-only directory fails before measuring, not after (exit 2).
if [ "$(id -u)" -ne 0 ]; then
	mkdir -p "$TMP/ro" && : > "$TMP/ro/t.txt" && chmod 555 "$TMP/ro" && ln -sf "$TMP/ro/t.txt" "$TMP/link.txt"
	expect "-o LINK -f into a read-only directory is refused before measuring (exit 2)" 2 \
		"directory '$TMP/ro' is not writable" $STUB "$CLBANKS" --quick -o "$TMP/link.txt" -f
	chmod 755 "$TMP/ro"
else
	skip "-o LINK -f into a read-only directory is refused before measuring" "root writes anywhere"
fi
# 11: --force keeps the replaced file's mode.
: > "$TMP/mode.json" && chmod 600 "$TMP/mode.json"
"$CLBANKS" plan -o "$TMP/mode.json" --force
assert "--force keeps a 0600 file 0600" test "$(stat -c %a "$TMP/mode.json")" = 600
# 7: a FIFO in --kernel-dir is refused unopened (exit 2); timeout 20 ends a run that blocks.
mkdir -p "$TMP/kf"
mkfifo "$TMP/kf/chase.cl"
expect "--kernel-dir with a FIFO chase.cl is refused (exit 2)" 2 "chase.cl: not a regular file" \
	timeout 20 $STUB "$CLBANKS" --quick --kernel-dir "$TMP/kf"
rm "$TMP/kf/chase.cl"
cp "$top_srcdir/cl/"*.cl "$TMP/kf/"
mkfifo "$TMP/kf/lane_table.clh"
expect "--kernel-dir with a FIFO lane_table.clh is refused (exit 2)" 2 "lane_table.clh: not a regular file" \
	timeout 20 $STUB "$CLBANKS" --quick --kernel-dir "$TMP/kf"
# 3: SIGINT reaches lint while clang waits on an #include of a FIFO: 130 at once, no clang left.
if "$CLBANKS" lint 2>&1 | grep -q "built without LLVM"; then
	skip "SIGINT while clang blocks on a FIFO include ends lint with 130" "built without LLVM"
	skip "and no clang is left running" "built without LLVM"
	skip "SIGINT then SIGTERM while clang blocks: lint ends at once" "built without LLVM"
	skip "and the second signal leaves no clang running" "built without LLVM"
	skip "SIGTERM during a long simulation ends lint with 143 within 3 s" "built without LLVM"
else
	mkdir -p "$TMP/lf" && mkfifo "$TMP/lf/fifo.h"
	printf '#include "fifo.h"\n__kernel void k(__local int *a) { a[get_local_id(0)] = 1; }\n' \
		> "$TMP/lf/blocked.cl"
	"$CLBANKS" lint "$TMP/lf/blocked.cl" --model "$H200" --local 32 > "$TMP/out" 2>&1 &
	pid=$!
	# The signal goes once clang runs (the helper's and clang's command lines name the kernel).
	i=0
	while [ "$i" -lt 60 ] && [ "$(ps -eo args | grep -v grep | grep -c "$TMP/lf/blocked.cl")" -lt 2 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	sleep 0.5
	kill -INT "$pid"
	( sleep 10; kill -KILL "$pid" 2>/dev/null ) &
	guard=$!
	wait "$pid"
	got=$?
	kill "$guard" 2>/dev/null
	if [ "$got" -eq 130 ]; then ok "SIGINT while clang blocks on a FIFO include ends lint with 130"
	else notok "SIGINT while clang blocks on a FIFO include ends lint with 130 (exit $got)"; fi
	sleep 1
	if ps -eo args | grep -v grep | grep -q "$TMP/lf/blocked.cl"; then
		notok "and no clang is left running"
		ps -eo pid,args | grep "$TMP/lf/blocked.cl" | grep -v grep | while read -r p _; do kill -KILL "$p"; done
	else ok "and no clang is left running"; fi
	# A second signal ends the helper at once; it kills clang first (an orphan before).
	printf '#include "fifo.h"\n__kernel void k2(__local int *a) { a[get_local_id(0)] = 2; }\n' \
		> "$TMP/lf/twice.cl"
	"$CLBANKS" lint "$TMP/lf/twice.cl" --model "$H200" --local 32 > "$TMP/out" 2>&1 &
	pid=$!
	i=0
	while [ "$i" -lt 60 ] && [ "$(ps -eo args | grep -v grep | grep -c "$TMP/lf/twice.cl")" -lt 2 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	sleep 0.5
	kill -INT "$pid"
	kill -TERM "$pid"
	( sleep 10; kill -KILL "$pid" 2>/dev/null ) &
	guard=$!
	wait "$pid"
	got=$?
	kill "$guard" 2>/dev/null
	if [ "$got" -eq 130 ] || [ "$got" -eq 143 ]; then ok "SIGINT then SIGTERM while clang blocks: lint ends at once"
	else notok "SIGINT then SIGTERM while clang blocks: lint ends at once (exit $got)"; fi
	sleep 1
	if ps -eo args | grep -v grep | grep -q "$TMP/lf/twice.cl"; then
		notok "and the second signal leaves no clang running"
		ps -eo pid,args | grep "$TMP/lf/twice.cl" | grep -v grep | while read -r p _; do kill -KILL "$p"; done
	else ok "and the second signal leaves no clang running"; fi
	# The interpreter polls the stop flag: 256 work-items of 10^6 steps each (minutes to
	# simulate) end within 3 s of SIGTERM, once clang is done and the simulation runs.
	printf '__kernel void spin(__global int *o)\n{\n\tint s = 0;\n\tfor (int i = 0; i < 1000000; i++)\n\t\ts += i;\n\to[get_local_id(0)] = s;\n}\n' \
		> "$TMP/lf/spin.cl"
	"$CLBANKS" lint "$TMP/lf/spin.cl" --model "$H200" --local 256 > "$TMP/out" 2>&1 &
	pid=$!
	i=0
	while [ "$i" -lt 60 ] && [ "$(ps -eo args | grep -v grep | grep -c "$TMP/lf/spin.cl")" -ne 1 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	sleep 1
	t0=$(date +%s)
	kill -TERM "$pid"
	( sleep 20; kill -KILL "$pid" 2>/dev/null ) &
	guard=$!
	wait "$pid"
	got=$?
	t1=$(date +%s)
	kill "$guard" 2>/dev/null
	if [ "$got" -eq 143 ] && [ $((t1 - t0)) -le 3 ] && grep -q "interrupted by SIGTERM" "$TMP/out"; then
		ok "SIGTERM during a long simulation ends lint with 143 within 3 s"
	else notok "SIGTERM during a long simulation ends lint with 143 within 3 s (exit $got after $((t1 - t0)) s)"; fi
fi

# issue 23 (reliability helper) ------------------------------------------------------------
# scaled FACTOR OUT: the H200's document with every ns_per_access multiplied by FACTOR
scaled() {
	awk -v f="$1" '/^ *"ns_per_access": / { v = $2; sub(/,$/, "", v); c = $2 ~ /,$/ ? "," : "";
		sub(/"ns_per_access": .*/, sprintf("\"ns_per_access\": %.17g%s", v * f, c)) } { print }' \
		"$H200" > "$2"
}
# The verdicts and geometries of a report, nothing scale-dependent.
verdicts() { grep -E '^(Result|Lanes/pass|Broadcast):' "$1"; }
"$CLBANKS" analyze "$H200" > "$TMP/scale1.txt" 2>&1
for f in 1e160 1e-160; do
	scaled "$f" "$TMP/scale$f.json"
	expect "times x $f: refused with the field and the range (exit 2)" 2 \
		"measurements\\[0\\]\\.ns_per_access = .* is outside what a device measures" \
		"$CLBANKS" analyze "$TMP/scale$f.json"
	expect "times x $f: predict refuses the model too" 2 "outside what a device measures" \
		"$CLBANKS" predict --model "$TMP/scale$f.json" --elem-bytes 4 --lanes "$(seq -s, 0 128 3968)"
done
for f in 1e3 1e-3; do
	scaled "$f" "$TMP/scale$f.json"
	"$CLBANKS" analyze "$TMP/scale$f.json" > "$TMP/scale$f.txt" 2>&1
	v1=$(verdicts "$TMP/scale1.txt") vf=$(verdicts "$TMP/scale$f.txt")
	assert "times x $f: the same verdicts and geometries as the document's own times" \
		test -n "$v1" -a "$v1" = "$vf"
	assert "times x $f: no NaN or infinity in the report" \
		sh -c "! grep -Eiq '(^|[^a-z])(nan|inf)([^a-z]|x|\$)' '$TMP/scale$f.txt'"
	"$CLBANKS" predict --model "$TMP/scale$f.json" --elem-bytes 4 --lanes "$(seq -s, 0 128 3968)" \
		> "$TMP/pscale$f.txt" 2>&1
	assert "times x $f: predict gives the H200's 32 passes" grep -q "^32 passes" "$TMP/pscale$f.txt"
done
# C1 controls (CSI, OSC) and bidi overrides from a document reach no terminal raw
doc c1.json '"A\u009b31mB\u202eC\u009d0;x\u0007"'
for fmt in text csv; do
	"$CLBANKS" analyze "$TMP/c1.json" --format $fmt > "$TMP/c1.$fmt" 2>&1
	assert "C1 controls and bidi overrides are escaped in the $fmt report" \
		sh -c "grep -q 'A\\\\u009b31mB\\\\u202eC\\\\u009d0;x' '$TMP/c1.$fmt' &&
			! grep -q \"\$(printf '\\302\\233')\" '$TMP/c1.$fmt' &&
			! grep -q \"\$(printf '\\342\\200\\256')\" '$TMP/c1.$fmt'"
done
"$CLBANKS" compare "$TMP/c1.json" "$H200" > "$TMP/c1.cmp" 2>&1
assert "C1 controls and bidi overrides are escaped in compare" \
	sh -c "! grep -q \"\$(printf '\\302\\233')\" '$TMP/c1.cmp' && ! grep -q \"\$(printf '\\342\\200\\256')\" '$TMP/c1.cmp'"

# issue 25: a latency run of stores says at once that stores cannot be timed there.
expect "--regime latency --ops store warns that a store chain has no dependency to time" 0 \
	"warning: --regime latency with stores: a store chain has no dependency to time" \
	$STUB "$CLBANKS" --regime latency --ops store --quick -o "$TMP/lat-store.json"

# issue 23.10: a large document is parsed a piece at a time: a signal ends the parse at once,
# and memory is the text and the result, not jansson's whole tree (7x the text).
# large K OUT: the H200's document with its measurements K times (40 MB for K = 36)
large() {
	awk -v k="$1" '
		!inm && $0 == " \"measurements\": [" { print; inm = 1; next }
		inm == 1 && $0 == " ]," { inm = 2 }
		inm == 1 { body[++nb] = $0; next }
		inm == 2 { rest[++nr] = $0; next }
		{ print }
		END {
			for (r = 1; r <= k; r++)
				for (i = 1; i <= nb; i++)
					print (i == nb && r < k) ? body[i] "," : body[i]
			for (i = 1; i <= nr; i++)
				print rest[i]
		}' "$H200" > "$2"
}
large 36 "$TMP/large.json"
# A build whose malloc is its own (sanitizers) neither runs under an address-space limit nor
# grows its heap with brk(); valgrind does neither either.
plain_malloc=no
if [ -z "${CLBANKS_VALGRIND:-}" ] && sh -c 'ulimit -v 80000 && exec "$0" --version' "$CLBANKS" >/dev/null 2>&1; then
	plain_malloc=yes
fi
if [ $plain_malloc = yes ]; then
	expect "a 40 MB document is read within 160 MB of address space (before: 300 MB)" 0 \
		"conflict-free" sh -c "ulimit -v 160000; exec \"\$0\" predict --model \"\$1\" --elem-bytes 4 --stride 1" \
		"$CLBANKS" "$TMP/large.json"
else
	skip "a 40 MB document is read within 160 MB of address space" "sanitizers or valgrind"
fi
if [ $plain_malloc = yes ] && [ $have_strace = yes ]; then
	# The SIGINT is sent from inside the parse, by strace, at the 30th growth of the heap after
	# the document was read (no timing: the Kth close() is the document's, counted in a run
	# on the small document; a run killed there counts the heap's growths up to it). What
	# clbanks does after the signal is counted in memory calls: before, it parsed on to the
	# end (some 1600 brk() calls for this document); now it stops within a piece.
	predict_large() { # DOC STRACE-ARGS...
		d=$1
		shift
		strace "$@" "$CLBANKS" predict --model "$d" --elem-bytes 4 --stride 1 >"$TMP/out" 2>&1 </dev/null
	}
	predict_large "$H200" -o "$TMP/t0" -e trace=openat,close
	k=$(awk -v doc="\"$H200\"" 'index($0, doc) && /^openat/ { fd = $NF; next }
		/^close\(/ { n++; if (fd != "" && index($0, "close(" fd ")") == 1) { print n; exit } }' "$TMP/t0")
	predict_large "$TMP/large.json" -o "$TMP/t1" -e trace=brk,close -e inject=close:signal=SIGKILL:when=${k:-1}
	b=$(grep -c '^brk(' "$TMP/t1")
	predict_large "$TMP/large.json" -o "$TMP/t2" -e trace=brk,mmap,munmap,mremap \
		-e inject=brk:signal=SIGINT:when=$((b + 30))
	got=$?
	after=$(awk '/^--- SIGINT/ { s = 1; next } s && /^(brk|mmap|munmap|mremap)\(/ { n++ } END { print n + 0 }' "$TMP/t2")
	assert "a SIGINT inside the parse of a 40 MB document: exit 130, said so, no answer (exit $got)" \
		sh -c "[ $got -eq 130 ] && grep -q 'interrupted by SIGINT' '$TMP/out' && ! grep -q 'pass' '$TMP/out'"
	assert "and the parse stops at once: $after memory calls after the signal (at most 20)" \
		sh -c "grep -q '^--- SIGINT' '$TMP/t2' && [ $after -le 20 ]"
else
	skip "a SIGINT inside the parse of a 40 MB document" "no strace, sanitizers or valgrind"
	skip "and the parse stops at once" "no strace, sanitizers or valgrind"
fi
rm -f "$TMP/large.json" "$TMP/t0" "$TMP/t1" "$TMP/t2"
# issue 23.11: a UTF-8 byte order mark before a document is ignored (before: "invalid JSON:
# '[' or '{' expected near '\ufeff'").
{ printf '\357\273\277'; cat "$H200"; } > "$TMP/bom.json"
expect "a document that starts with a UTF-8 byte order mark is read" 0 "Result: +banked, 32 banks" \
	"$CLBANKS" analyze "$TMP/bom.json"
# issue 23.11: the CSV of measurements without "params" (UBSan, before: memcpy from NULL in
# report_csv.c; the sanitizer build fails this case, halt_on_error).
awk '/^   "params": \{/ { skip = 1; next } skip { if ($0 ~ /^   \},?$/) skip = 0; next } { print }' \
	"$H200" > "$TMP/noparams.json"
expect "the CSV of measurements without params has an empty params column" 0 \
	"^2,NVIDIA H200,throughput,0,stride,load,1,,265" "$CLBANKS" analyze "$TMP/noparams.json" --format csv

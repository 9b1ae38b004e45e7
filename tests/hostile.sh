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
# LeakSanitizer cannot work under ptrace ("LeakSanitizer has encountered a fatal error", exit 1
# at the end of a sanitizer build's run): a process that strace holds is checked without it.
NOLSAN="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# doc NAME JSON-STRING: H200's document with device.name set to a JSON string literal
doc() {
	value=$(printf '%s' "$2" | sed 's/[\\&|]/\\&/g')
	sed "s|\"name\": \"NVIDIA H200\"|\"name\": $value|" "$H200" > "$TMP/$1"
}

echo "1..166"

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
# The measurement is kept in $TMPDIR: this script's own, not the machine's (a file a run).
mkdir -p "$TMP/kept"
expect "run -o - > /dev/full: exit 4, the measurement is not lost silently" 4 \
	"write error on standard output.*; the result is kept in '$TMP/kept/clbanks-[0-9]+-result'" \
	sh -c "exec $STUB TMPDIR=\"\$1\" \"\$0\" --quick -o - > /dev/full" "$CLBANKS" "$TMP/kept"
expect "compare -o /dev/full names the file and the reason" 4 "cannot write '/dev/full': No space left" \
	"$CLBANKS" compare "$H200" -o /dev/full -f

# -- special files at -o: written in place, never replaced -----------------------------------
expect "-o /dev/null --force writes into the device" 0 '' "$CLBANKS" analyze "$H200" -o /dev/null -f
assert "/dev/null is still a character device" test -c /dev/null
mkfifo "$TMP/fifo"
cat "$TMP/fifo" > "$TMP/from-fifo" &
expect "-o FIFO --force writes into the FIFO" 0 '' "$CLBANKS" analyze "$H200" -o "$TMP/fifo" -f
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
	$NOLSAN strace -f -o /dev/null -e inject=fsync:delay_enter=3000000 \
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
	# An unterminated 40 MB string under an 80 MB address space: the text read whole (one
	# buffer of the file's size) and jansson's copy of the string (its buffer doubles to 64 MB)
	# do not fit. (20 MB did while the text's buffer doubled; read at its size, it fits.)
	{ printf '["'; yes A | tr -d '\n' | head -c 40000000; } > "$TMP/big.json"
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
# SIGQUIT and SIGUSR1 during a run on PoCL: the LLVM in the driver puts signal handlers of its
# own in front of clbanks' when the driver loads. Its handler of SIGQUIT restored clbanks' and
# dropped the signal (before: the first Ctrl-\ was lost, the run went on and wrote its document,
# exit 0); its handler of SIGUSR1 only printed, so SIGUSR1 no longer ended the process.
# A real driver: no leak check under the sanitizers (see no_leak_check_in_drivers in lib.sh).
if have_opencl && "$CLBANKS" --list 2>/dev/null | grep -q "Portable Computing Language"; then
	for sig in QUIT USR1; do
		case $sig in QUIT) want=131 said="interrupted by SIGQUIT" ;; USR1) want=138 said= ;; esac
		rm -f "$TMP/out"
		$NOLSAN "$CLBANKS" --device pocl -o "$TMP/$sig.json" > "$TMP/out" 2>&1 &
		pid=$!
		tries=0
		until grep -q "clbanks: measuring" "$TMP/out" || [ $tries -ge 1200 ]; do
			sleep 0.05
			tries=$((tries + 1))
		done
		kill -$sig $pid
		wait $pid
		got=$?
		if [ $got -eq $want ] && grep -q "$said" "$TMP/out"; then
			ok "SIG$sig during a run on PoCL ends it (exit $want)"
		else
			notok "SIG$sig during a run on PoCL ends it (exit $got, expected $want)"
		fi
		nothing "nothing written after SIG$sig on PoCL" "$TMP/$sig.json"
	done
else
	for sig in QUIT USR1; do
		skip "SIG$sig during a run on PoCL ends it" "no PoCL"
		skip "nothing written after SIG$sig on PoCL" "no PoCL"
	done
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
	# The interpreter polls the stop flag: 256 work-items of 10^6 steps each (seconds to
	# simulate, up to the work-group's budget) end within 3 s of SIGTERM, sent early.
	printf '__kernel void spin(__global int *o)\n{\n\tint s = 0;\n\tfor (int i = 0; i < 1000000; i++)\n\t\ts += i;\n\to[get_local_id(0)] = s;\n}\n' \
		> "$TMP/lf/spin.cl"
	"$CLBANKS" lint "$TMP/lf/spin.cl" --model "$H200" --local 256 > "$TMP/out" 2>&1 &
	pid=$!
	i=0
	while [ "$i" -lt 300 ] && [ "$(ps -eo args | grep -v grep | grep -c "$TMP/lf/spin.cl")" -ne 1 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.2
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

# issue 39 (hostile pass 5) -----------------------------------------------------------------
# 1: a path that names one of clbanks' own descriptors is written as that descriptor, never
# renamed over the file behind it (before: what the shell wrote there before and after was lost).
fdcase() { # DESCRIPTION FD ARGS...: analyze -o ARGS with descriptor FD appended to a log
	d=$1 fd=$2
	shift 2
	echo HEADER > "$TMP/fd.log"
	case $fd in
	1) "$CLBANKS" analyze "$H200" "$@" >> "$TMP/fd.log" 2> "$TMP/out" ;;
	2) "$CLBANKS" analyze "$H200" "$@" 2>> "$TMP/fd.log" > "$TMP/out" ;;
	*) "$CLBANKS" analyze "$H200" "$@" 3>> "$TMP/fd.log" > "$TMP/out" 2>&1 ;;
	esac
	got=$?
	echo TRAILER >> "$TMP/fd.log"
	if [ $got -eq 0 ] && [ "$(head -1 "$TMP/fd.log")" = HEADER ] &&
	   [ "$(tail -1 "$TMP/fd.log")" = TRAILER ] && grep -q '^Result:' "$TMP/fd.log"; then
		ok "$d"
	else
		notok "$d (exit $got)"
	fi
}
ln -s /dev/stdout "$TMP/to-stdout"
fdcase "-o /dev/stdout -f into a log: the shell's lines before and after are kept" 1 -o /dev/stdout -f
fdcase "-o /dev/stdout needs no --force (it is standard output)" 1 -o /dev/stdout
fdcase "-o /dev/stderr -f with 2>> LOG writes into the log" 2 -o /dev/stderr -f
fdcase "-o /dev/fd/3 -f with 3>> LOG writes into the log" 3 -o /dev/fd/3 -f
fdcase "-o /proc/self/fd/3 -f with 3>> LOG writes into the log" 3 -o /proc/self/fd/3 -f
fdcase "-o LINK-TO-/dev/stdout -f writes standard output" 1 -o "$TMP/to-stdout" -f
expect "-o /dev/fd/9, a descriptor not open: refused (exit 2)" 2 \
	"cannot write '/dev/fd/9': descriptor 9 is not open" "$CLBANKS" analyze "$H200" -o /dev/fd/9 -f
# 9: an existing FIFO or character device, or a symbolic link to one, takes --force; one planted
# by another user in a sticky world-writable directory is refused even then.
mkfifo "$TMP/fifo2"
expect "-o FIFO without --force is refused before any work (exit 2)" 2 \
	"output '$TMP/fifo2' exists \\(a FIFO\\); use --force to write into it" \
	timeout 60 $STUB "$CLBANKS" --quick -o "$TMP/fifo2"
ln -s /dev/null "$TMP/to-null"
expect "-o LINK-TO-/dev/null without --force is refused (exit 2)" 2 \
	"exists \\(a character device\\); use --force" "$CLBANKS" analyze "$H200" -o "$TMP/to-null"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	chmod 711 "$TMP"
	mkdir -m 1777 "$TMP/shared"
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	as_nobody ln -s /dev/null "$TMP/shared/res.json"
	as_nobody mkfifo "$TMP/shared/res2.json"
	expect "a symlink of another user in a sticky directory is not followed, even with --force" 2 \
		"is a symbolic link of another user \\(uid 65534\\) in the shared directory" \
		"$CLBANKS" analyze "$H200" -o "$TMP/shared/res.json" -f
	expect "a FIFO of another user in a sticky directory is not opened, even with --force" 2 \
		"is a FIFO of another user \\(uid 65534\\) in the shared directory" \
		timeout 60 "$CLBANKS" analyze "$H200" -o "$TMP/shared/res2.json" -f
	chmod 700 "$TMP"
else
	skip "a symlink of another user in a sticky directory is not followed" "not root, or no setpriv"
	skip "a FIFO of another user in a sticky directory is not opened" "not root, or no setpriv"
fi
# 2: a finished measurement that cannot be written where -o says is kept in another file, named
# (before: exit 4 or 2 and the measurement was gone). The stub's slow transpose check holds
# the run after the measurement while the output's place changes.
mkdir -p "$TMP/gone" "$TMP/keep"
$STUB TMPDIR="$TMP/keep" CBSTUB_FAULT=slow-transpose "$CLBANKS" --quick -o "$TMP/gone/r.json" \
	> "$TMP/out" 2>&1 </dev/null &
pid=$!
wait_for_line "$TMP/out" "stub: transpose check" 600
rm -r "$TMP/gone"
wait $pid
got=$?
kept=$(sed -n "s/.*; the result is kept in '\\(.*\\)'\$/\\1/p" "$TMP/out")
case $kept in "$TMP/keep/clbanks-$pid-r.json") good=yes ;; *) good=no ;; esac
assert "the output's directory removed during a run: exit 4, the document kept in \$TMPDIR (exit $got)" \
	test $got -eq 4 -a $good = yes
expect "the kept document is the run's, whole" 0 "Result: +banked" "$CLBANKS" analyze "$kept"
$STUB CBSTUB_FAULT=slow-transpose "$CLBANKS" --quick -o "$TMP/won.json" > "$TMP/out" 2>&1 </dev/null &
pid=$!
wait_for_line "$TMP/out" "stub: transpose check" 600
echo other > "$TMP/won.json"
wait $pid
got=$?
assert "a file that appeared during the run: exit 2, it is untouched, the document kept beside it" \
	sh -c "[ $got -eq 2 ] && grep -qx other '$TMP/won.json' &&
		grep -q \"appeared while .*; the result is kept in '$TMP/won.json.clbanks-$pid'\" '$TMP/out' &&
		grep -q '\"format\": \"clbanks\"' '$TMP/won.json.clbanks-$pid'"
expect "a run to -o /dev/full -f: exit 4, the document kept in \$TMPDIR, named" 4 \
	"No space left on device; the result is kept in '$TMP/keep/clbanks-[0-9]+-full'" \
	$STUB TMPDIR="$TMP/keep" "$CLBANKS" --quick -q -o /dev/full -f
# 3: SIGQUIT is a stop signal; SIGUSR1 and SIGALRM wait until the commit is over: none leaves
# the temporary file behind (before: .clbanks-XXXXXX stayed). strace makes the commit's fsync
# take 1 s; the signal is sent while the output is open in its directory.
if [ $have_strace = yes ]; then
	for sig in QUIT USR1 ALRM; do
		rm -rf "$TMP/q"
		mkdir "$TMP/q"
		$NOLSAN strace -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=1000000 \
			"$CLBANKS" analyze "$H200" -o "$TMP/q/out.txt" > "$TMP/out" 2>&1 &
		pid=$!
		tries=0
		child=
		while [ $tries -lt 600 ]; do
			child=$(pgrep -P $pid -x clbanks)
			[ -n "$child" ] && ls -l "/proc/$child/fd" 2>/dev/null | grep -q "$TMP/q/" && break
			sleep 0.02
			tries=$((tries + 1))
		done
		kill -$sig $child
		wait $pid
		if has_temp "$TMP/q"; then
			notok "SIG$sig during the commit leaves no temporary file"
		elif [ $sig = QUIT ] && { [ -e "$TMP/q/out.txt" ] || ! grep -q "interrupted by SIGQUIT" "$TMP/out"; }; then
			notok "SIGQUIT during the commit is a stop: said so, nothing written"
		elif [ -e "$TMP/q/out.txt" ] && ! grep -q '^Result:' "$TMP/q/out.txt"; then
			notok "SIG$sig during the commit: the output is whole or absent"
		else
			ok "SIG$sig during the commit leaves no temporary file"
		fi
	done
else
	for sig in QUIT USR1 ALRM; do skip "SIG$sig during the commit" "no strace"; done
fi
# 3: a SIGHUP while 'clbanks lint' execs its helper waits until the helper handles it (before:
# the helper, still loading LLVM, died of it unannounced). strace holds the exec's return 1.5 s.
if [ $have_strace = yes ] && ! "$CLBANKS" lint 2>&1 | grep -q "built without LLVM"; then
	$NOLSAN strace -o /dev/null -e trace=execve -e inject=execve:delay_exit=1500000 \
		"$CLBANKS" lint "$top_srcdir/tests/lint/transpose.cl" --model "$H200" --local 32,8 \
		> "$TMP/out" 2>&1 &
	pid=$!
	tries=0
	while [ $tries -lt 600 ]; do
		child=$(pgrep -P $pid)
		[ -n "$child" ] && readlink "/proc/$child/exe" | grep -q 'clbanks-lint$' && break
		sleep 0.02
		tries=$((tries + 1))
	done
	kill -HUP $child
	wait $pid
	got=$?
	assert "SIGHUP while lint starts its helper: exit 129, said so (exit $got)" \
		sh -c "[ $got -eq 129 ] && grep -q 'interrupted by SIGHUP' '$TMP/out'"
else
	skip "SIGHUP while lint starts its helper" "no strace, or built without LLVM"
fi
# 10: lint reads only regular files in the kernel's directory and the -I directories (before:
# clang's diagnostics quoted /etc/passwd into the log; /dev/zero and /proc files included as
# empty).
if ! "$CLBANKS" lint 2>&1 | grep -q "built without LLVM"; then
	mkdir -p "$TMP/li/sub" "$TMP/li/inc"
	echo 'secret-line-of-another-file' > "$TMP/li/secret.txt"
	for f in "$TMP/li/secret.txt" "../secret.txt" /proc/self/environ; do
		printf '#include "%s"\n__kernel void k(__local int *a) { a[get_local_id(0)] = 1; }\n' "$f" \
			> "$TMP/li/sub/inc.cl"
		expect "lint: #include \"$f\" is refused (exit 2)" 2 \
			"includes '.*', outside its own directory and the -I directories" \
			"$CLBANKS" lint "$TMP/li/sub/inc.cl" --model "$H200" --local 32
		assert "lint: and no line of it is shown" sh -c "! grep -q secret-line '$TMP/out'"
	done
	ln -s "$TMP/li/secret.txt" "$TMP/li/sub/link.h"
	printf '#include "link.h"\n__kernel void k(__local int *a) { a[get_local_id(0)] = 1; }\n' \
		> "$TMP/li/sub/inc.cl"
	expect "lint: a symbolic link in the kernel's directory that leads out is refused" 2 \
		"includes '.*link.h', outside its own directory" \
		"$CLBANKS" lint "$TMP/li/sub/inc.cl" --model "$H200" --local 32
	printf '#include "zero"\n__kernel void k(__local int *a) { a[get_local_id(0)] = 1; }\n' \
		> "$TMP/li/sub/zero.cl"
	expect "lint: an include that is a device (-I /dev, \"zero\") is refused" 2 \
		"includes '/dev/zero', which is not a regular file" \
		"$CLBANKS" lint "$TMP/li/sub/zero.cl" -I /dev --model "$H200" --local 32
	echo '#define X 1' > "$TMP/li/inc/hdr.h"
	printf '#include "hdr.h"\n__kernel void k(__local int *a) { a[get_local_id(0)] = X; }\n' \
		> "$TMP/li/sub/ok.cl"
	expect "lint: a header of an -I directory is read" 0 "1 __local access: 1 predicted" \
		"$CLBANKS" lint "$TMP/li/sub/ok.cl" -I "$TMP/li/inc" --model "$H200" --local 32
else
	for i in 1 2 3 4 5 6 7 8 9; do skip "lint include case $i" "built without LLVM"; done
fi
# 11: a recorded model's fields of the wrong type or range are refused with their path (before:
# a "broadcast" of 0 read as true, 32 passes became 1; a confidence of "0.01" or 2 as sure).
for case in 'broadcast": 0:inference.broadcast is an integer, expected true, false or null' \
	    'broadcast": "false":inference.broadcast is a string' \
	    'confidence": "0.01":inference.confidence is a string, expected a number from 0 to 1' \
	    'confidence": 2.0:inference.confidence = 2 is outside 0 to 1' \
	    'confidence": -0.5:inference.confidence = -0.5 is outside 0 to 1'; do
	field=${case%%\"*} value=${case#*\": } value=${value%%:*} msg=${case#*:*:}
	sed "435s/\"$field\": [^,]*,/\"$field\": $value,/; 434s/\"$field\": [^,]*,/\"$field\": $value,/" \
		"$H200" > "$TMP/rec.json"
	expect "predict refuses inference.$field = $value, naming the field" 2 "$msg" \
		"$CLBANKS" predict --model "$TMP/rec.json" --elem-bytes 4 --stride 0
done
sed '513s/"subgroup_size": 32/"subgroup_size": 16/' "$H200" > "$TMP/rec.json"
expect "an inference.subgroup_size other than the device's is refused" 2 \
	"inference.subgroup_size is not device.subgroup_size \\(32\\)" "$CLBANKS" analyze "$TMP/rec.json"
# 13: the transpose check of a document: a missing naive variant leaves the others their own
# times (before: "nan us" and "not timed" for timed variants); element sizes other than 4, 8
# and 16 and a swizzle of 0 bits are refused (before: "float4 tile", "c ^ (r & 0)").
sed '811,837d' "$H200" > "$TMP/nonaive.json"
"$CLBANKS" analyze "$TMP/nonaive.json" > "$TMP/out" 2>&1
assert "without the naive variant: each fix's own time, no speed-up, no NaN" sh -c "
	grep -q 'padded \\[32\\]\\[33\\]: 38.5 us (no speed-up: the naive variant is' '$TMP/out' &&
	! grep -qi 'nan' '$TMP/out'"
sed '816s/"elem_bytes": 4/"elem_bytes": 3/' "$H200" > "$TMP/eb3.json"
expect "a transpose check of 3-byte elements is refused" 2 \
	"kernel_checks\\[0\\]\\.elem_bytes = 3 is not an element size of the check \\(4, 8 or 16\\)" \
	"$CLBANKS" analyze "$TMP/eb3.json"
sed '867s/"bits": 5/"bits": 0/' "$H200" > "$TMP/bits0.json"
expect "a swizzle of 0 bits is refused" 2 "kernel_checks\\[2\\]\\.bits = 0: a swizzle of 0 bits" \
	"$CLBANKS" analyze "$TMP/bits0.json"
# 14: lint --measured reads a document only where its times and ratios agree, every measurement
# verified and every interval in order (before: the ratios were read and the times ignored,
# while analyze does the opposite: one document, two answers).
if ! "$CLBANKS" lint 2>&1 | grep -q "built without LLVM"; then
	LT=$top_srcdir/tests/lint/transpose.cl
	"$CLBANKS" lint "$LT" --local 32,8 -k naive --model "$H200" --format plan -o "$TMP/lp.json" &&
		$STUB "$CLBANKS" --plan "$TMP/lp.json" -o "$TMP/lm.json" -q > /dev/null 2>&1
	sed 's/"ns_per_access": [-0-9.e+]*/"ns_per_access": 100.0/' "$TMP/lm.json" > "$TMP/lm-flat.json"
	expect "lint --measured: times that contradict the ratios are refused" 2 \
		"the measured document contradicts itself: measurements\\[[0-9]+\\]\\.ns_per_access = 100" \
		"$CLBANKS" lint "$LT" --local 32,8 -k naive --model "$H200" --measured "$TMP/lm-flat.json"
	sed '0,/"verified": true/s//"verified": false/' "$TMP/lm.json" > "$TMP/lm-unv.json"
	expect "lint --measured: an unverified measurement is refused" 2 \
		"measurements\\[[0-9]+\\] is not verified" \
		"$CLBANKS" lint "$LT" --local 32,8 -k naive --model "$H200" --measured "$TMP/lm-unv.json"
	awk '/"ratio_ci95": \[/ && !done { print; getline a; getline b; sub(/,$/, "", a);
		print b ","; print a; done = 1; next } { print }' "$TMP/lm.json" > "$TMP/lm-inv.json"
	expect "lint --measured: an inverted interval is refused" 2 "ratio_ci95 is inverted" \
		"$CLBANKS" lint "$LT" --local 32,8 -k naive --model "$H200" --measured "$TMP/lm-inv.json"
	expect "lint --measured: the document as measured is read" 0 "measured 11\\.[0-9]+x" \
		"$CLBANKS" lint "$LT" --local 32,8 -k naive --model "$H200" --measured "$TMP/lm.json"
else
	for i in 1 2 3 4; do skip "lint --measured consistency case $i" "built without LLVM"; done
fi
# 6: lint compiles a file once, however many kernels it has (before: once to list them and once
# more per kernel, each compiling the whole file: 1,000 kernels took minutes). A clang that
# counts its runs stands in for clbanks' own.
clang_path=$(sed -n 's/^#define CB_CLANG "\(.*\)"$/\1/p' "$top_builddir/config.h")
if ! "$CLBANKS" lint 2>&1 | grep -q "built without LLVM" && [ -n "$clang_path" ]; then
	printf '#!/bin/sh\necho run >> "%s"\nexec "%s" "$@"\n' "$TMP/clang-runs" "$clang_path" \
		> "$TMP/clang-count"
	chmod +x "$TMP/clang-count"
	: > "$TMP/mk.cl"
	for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
		echo "__kernel void k$i(__local int *a) { a[get_local_id(0) * $i] = 1; }" >> "$TMP/mk.cl"
	done
	: > "$TMP/clang-runs"
	expect "lint of 12 kernels: each reported" 0 "mk.cl: kernel k11," \
		env CLBANKS_CLANG="$TMP/clang-count" "$CLBANKS" lint "$TMP/mk.cl" --model "$H200" --local 32
	assert "and clang ran once ($(wc -l < "$TMP/clang-runs") runs)" test "$(wc -l < "$TMP/clang-runs")" -eq 1
else
	skip "lint of 12 kernels" "built without LLVM"; skip "and clang ran once" "built without LLVM"
fi
# 7: a budget for the whole work-group (before: each work-item just under its own bound, 1024
# of them simulated for minutes, silently; timeout 60 ends that case).
if ! "$CLBANKS" lint 2>&1 | grep -q "built without LLVM"; then
	printf '__kernel void spin(__global int *o)\n{\n\t__local int l[1024];\n\tint s = 0;\n\tfor (int i = 0; i < 1400000; i++)\n\t\ts += i ^ s;\n\tl[get_local_id(0)] = s;\n\to[get_local_id(0)] = l[get_local_id(0) ^ 1];\n}\n' \
		> "$TMP/gspin.cl"
	expect "lint: a work-group past its budget stops with the 'bound its loops' error (exit 2)" 2 \
		"the work-group ran more than [0-9]+ instructions \\(at work-item [0-9]+ of 1024\\) without ending; bound its loops" \
		timeout 60 "$CLBANKS" lint "$TMP/gspin.cl" --model "$H200" --local 1024
else
	skip "lint: a work-group past its budget" "built without LLVM"
fi
# 23: jansson's flag names stay out of messages (before: "\u0000 is not allowed without
# JSON_ALLOW_NUL", a flag the user cannot set).
printf '{"format":"clbanks\\u0000x"}\n' > "$TMP/nul.json"
expect "a NUL character in a document string: said in the user's words" 2 \
	"invalid JSON: \\\\u0000 is not allowed in a string" "$CLBANKS" analyze "$TMP/nul.json"
# 16: a message about a long path keeps its reason (before: cut at 1 KiB, 'clbanks: /tmp/ddd...d'
# with neither the file's name nor what is wrong).
long_dir=$TMP/$(printf '%0200d' 0 | tr 0 d)
long_dir=$long_dir/${long_dir##*/}/${long_dir##*/}/${long_dir##*/}/${long_dir##*/}/${long_dir##*/}
if mkdir -p "$long_dir" 2>/dev/null; then
	echo '{"format":"clbanks"' > "$long_dir/bad.json"
	expect "a document at a 1,200-character path: the message ends with the reason" 2 \
		"/bad\\.json:2:0: invalid JSON: '}' expected near end of file\$" "$CLBANKS" analyze "$long_dir/bad.json"
	expect "an output in a missing directory of a long path: the reason is kept" 2 \
		"does not exist\$" "$CLBANKS" plan -o "$long_dir/missing/p.json"
else
	skip "a document at a 1,200-character path" "no long paths here"
	skip "an output in a missing directory of a long path" "no long paths here"
fi
# A message that echoes a long string of a document (an op of 10,000 characters) keeps its end,
# the reason (before: cut at 8 KiB inside the string).
long_op=$(printf '%010000d' 0 | tr 0 x)
awk -v l="$long_op" '!d && /"op": "load"/ { sub(/"op": "load"/, "\"op\": \"" l "\""); d = 1 }
	{ print }' "$H200" > "$TMP/longop.json"
expect "a document's 10,000-character op: the message ends with the reason" 2 \
	'x" is not supported \("load", "store" or "atomic"\)$' "$CLBANKS" analyze "$TMP/longop.json"
# 20: a driver's implausible local memory size (recorded as unknown) is said as such, and
# --local-mem names it (before: "offers 0 B of local memory", and --local-mem "exceeds" 0 B).
expect "a driver reporting 1 TiB of local memory: the message says to give --local-mem" 2 \
	"the driver reports no plausible local memory size \\(see the warning\\); give the size" \
	$STUB CBSTUB_LOCAL_MEM=1099511627776 "$CLBANKS" --quick -o "$TMP/lmem.json"
expect "and with --local-mem the run is made" 0 "^Result:" \
	$STUB CBSTUB_LOCAL_MEM=1099511627776 "$CLBANKS" --quick --local-mem 32768 -q -o "$TMP/lmem2.json"
# 23: a gnuplot that writes without end is named, and nothing is written (before: "the program
# wrote more than 67108864 bytes", naming neither).
if [ -x /usr/bin/yes ]; then
	expect "plot: a CLBANKS_GNUPLOT that writes without end is named (exit 4)" 4 \
		"/usr/bin/yes wrote more than [0-9]+ bytes; stopped it, nothing written" \
		env CLBANKS_GNUPLOT=/usr/bin/yes timeout 120 "$CLBANKS" plot "$H200" -o "$TMP/yes.svg"
else
	skip "plot: a CLBANKS_GNUPLOT that writes without end is named" "no /usr/bin/yes"
fi

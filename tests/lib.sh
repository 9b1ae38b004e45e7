# SPDX-License-Identifier: MIT
# Shared helpers of the shell tests. Sourced; expects CLBANKS, top_srcdir and top_builddir
# from the test environment (tests/Makefile.inc), with fallbacks for running by hand.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${CLBANKS:=$top_builddir/clbanks}"
# make check-valgrind runs the binary under valgrind.
if [ -n "${CLBANKS_VALGRIND:-}" ]; then
	CLBANKS=$top_srcdir/tests/valgrind-clbanks.sh
	export top_srcdir top_builddir
fi
LC_ALL=C
export LC_ALL

# A scratch directory per test script, removed on exit by the shell that made it, never by a
# subshell forked from it. A subshell that a signal reaches before it has reset the traps it
# inherited runs the script's EXIT trap: bash does, for a SIGTERM sent right after the fork
# (hostile.sh's guard '( sleep 10; kill ... ) &', killed as soon as lint had ended), and its
# 'rm -rf' took the directory from under every later case. $$ is the script's pid in a
# subshell too; BASHPID (bash), or else the parent of an exec'd sh, is the process's own. The
# test is a 'case', not '[' or 'if': in that trap bash 5.2 runs 'if false; then X; fi''s X.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/clbanks-test.XXXXXX") || exit 99
TMP_OWNER=$$
trap 'case ${BASHPID:-$(exec sh -c '\''echo "$PPID"'\'')} in "$TMP_OWNER") rm -rf "$TMP" ;; esac' EXIT

# Does any OpenCL platform exist? (exit 3 from --list means none)
have_opencl() {
	"$CLBANKS" --list >/dev/null 2>&1
}

# Skip the whole (non-TAP) test when there is no OpenCL platform.
require_opencl() {
	if ! have_opencl; then
		echo "SKIP: no OpenCL platform (install pocl-opencl-icd to run the live tests)"
		exit 77
	fi
	no_leak_check_in_drivers
}

# Under the sanitizers, no leak check in runs that load a real driver. LeakSanitizer must stop
# every thread at exit, and with PoCL's worker threads shutting down it now and then gives up
# ("fatal error ... does not work under ptrace") and fails a clean run; and the drivers leak
# on their own (Mesa's ICDs leave 128 bytes from a module already unloaded, so no suppression
# can name it). The same code's leaks are checked by the unit, CLI and stub-driver tests, and
# by valgrind (live-valgrind.test).
no_leak_check_in_drivers() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
}

# JSON queries through clbanks' own reader would be circular; python3 is not a dependency,
# so checks use grep on the sorted, indented output of jansson (one key per line).
json_has() { # FILE KEY-REGEX
	grep -Eq "$2" "$1"
}

# Wait until process PID has installed clbanks' stop handlers (SIGHUP is the last of the three),
# so a signal sent next tests the handler, not the default action of a process still starting
# (a busy machine can take seconds to get there). Linux reads /proc; elsewhere, a pause.
wait_for_handlers() { # PID
	if [ ! -r "/proc/$1/status" ]; then
		sleep 1
		return 0
	fi
	# The process must be clbanks itself: a shell that has forked but not yet exec'd may
	# carry its own SIGHUP handler (bash's EXIT trap). Under valgrind it is memcheck, which
	# catches every signal from the start: then a pause.
	if [ -n "${CLBANKS_VALGRIND:-}" ]; then
		sleep 5
		return 0
	fi
	tries=0
	while [ $tries -lt 600 ]; do
		name=$(sed -n 's/^Name:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null) || return 1
		caught=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null) || return 1
		[ -n "$caught" ] || return 1
		last=${caught#"${caught%?}"}
		[ "$name" = clbanks ] && [ $((0x$last & 1)) -eq 1 ] && return 0
		sleep 0.1
		tries=$((tries + 1))
	done
	return 1
}

# Wait until FILE has a line matching the extended REGEX, for at most TENTHS tenths of a second
# (a process writing it in the background: a progress line, a stub fault's announcement).
wait_for_line() { # FILE REGEX TENTHS
	waited=0
	while ! grep -Eq -- "$2" "$1" && [ $waited -lt "$3" ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
}

# Does DIR hold a temporary output file (src/cli/outfile.c names them DIR/.clbanks-XXXXXX)?
has_temp() { # DIR
	ls -a "$1" | grep -q '^\.clbanks-'
}

fail_count=0
check() { # DESCRIPTION COMMAND... : runs the command, reports, remembers failures
	desc=$1
	shift
	if "$@"; then
		echo "PASS: $desc"
	else
		echo "FAIL: $desc"
		fail_count=$((fail_count + 1))
	fi
}

finish() {
	if [ "$fail_count" -ne 0 ]; then
		echo "$fail_count check(s) failed"
		exit 1
	fi
	exit 0
}

# TAP for the scripts that run clbanks case by case (stub.sh, lint-measure.sh): N counts the
# cases; a failing one shows the head of $TMP/out. Scripts with other needs define their own.
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

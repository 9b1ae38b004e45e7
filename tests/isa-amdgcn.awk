# SPDX-License-Identifier: MIT
# Reads AMDGPU assembly (clang -S) of cl/chase.cl and checks the chase loop for element size E
# (awk -v E=bytes). Prints one line "OK <summary>" or "BAD <reason>" followed by the loop.
#
# The loop: a basic block that ends in a conditional branch back to its own label (LLVM keeps
# the unrolled chain in one block), and that holds LDS reads; there must be exactly one. The
# fill loop before the barrier has LDS writes only.
#
# Steps per iteration K: the immediate that the loop adds to the scalar register it compares
# (s_add_i32/s_add_u32 sN, sN, K ... s_cmp_* sN, ...); the source unrolls by 8, the compiler may
# unroll further. Counting by K, not by position, makes the check independent of scheduling.
#
# Per step, exactly:
#   one LDS read of E bytes: ds_read_u8/u16/b32/b64/b128 (gfx9, gfx10) or ds_load_* (gfx11+);
#     a ds_read2*, b96 or any other width is a split or widened read;
#   one logic op, v_and_or_b32 (off = start | (v & mask));
#   the fold of an 8- or 16-byte element to 32 bits: E/4 - 1 XOR reductions (v_xor_b32 counts
#     1, v_xor3_b32 counts 2);
# and nothing else on the vector ALU: no v_add* (the LDS base of a __local pointer argument),
# no shifts, moves or multiplies. Scalar loop control (s_*) is free. No other memory access
# (global, flat, buffer, scratch: a spill) and no LDS write may sit in the loop.

function width(op) {
	if (op ~ /^ds_(read|load)2/ || op ~ /_b96$/) return -1
	if (op ~ /_[ui]8(_d16)?(_hi)?$/) return 1
	if (op ~ /_[ui]16(_d16)?(_hi)?$/) return 2
	if (op ~ /_b32$/) return 4
	if (op ~ /_b64$/) return 8
	if (op ~ /_b128$/) return 16
	return -1
}

/^\.LBB[0-9_]+:/ { lab = $1; sub(/:$/, "", lab); body = ""; next }
/^[ \t]*;/ || /^[ \t]*\./ || /^[ \t]*$/ { next }
/^[^ \t]/ { lab = ""; next }  # another label or symbol: not inside a numbered block
lab != "" {
	line = $0
	sub(/[ \t]*;.*/, "", line)
	body = body line "\n"
	if ($1 ~ /^s_cbranch_/ || $1 == "s_branch") {
		if ($2 == lab && body ~ /ds_(read|load)/)
			loops[++nloops] = body
		lab = ""
	}
}

END {
	if (nloops != 1) {
		printf "BAD %d single-block loops with LDS reads (want 1)\n", nloops
		for (i = 1; i <= nloops; i++)
			printf "%s", loops[i]
		exit 0
	}
	n = split(loops[1], L, "\n")
	# The loop counter: a compared scalar register, and the immediate added to it.
	for (i = 1; i <= n; i++) {
		split(L[i], f, /[ \t,]+/)
		if (f[2] ~ /^s_cmp_/) cmp[f[3]] = 1
	}
	K = 0
	for (i = 1; i <= n; i++) {
		split(L[i], f, /[ \t,]+/)
		if (f[2] !~ /^s_add_[iu]32$/ || !(f[3] in cmp)) continue
		if (f[4] == f[3] && f[5] ~ /^(0x)?[0-9a-f]+$/) K = f[5] + 0
		else if (f[5] == f[3] && f[4] ~ /^(0x)?[0-9a-f]+$/) K = f[4] + 0
	}
	reads = 0; badw = ""; logic = 0; fold = 0; other = ""; mem = ""
	for (i = 1; i <= n; i++) {
		split(L[i], f, /[ \t,]+/)
		op = f[2]
		if (op ~ /^ds_(read|load)/) {
			reads++
			if (width(op) != E) badw = badw " " op
		} else if (op ~ /^ds_/) {
			mem = mem " " op
		} else if (op ~ /^(global|flat|buffer|scratch|tbuffer)_/) {
			mem = mem " " op
		} else if (op == "v_and_or_b32") {
			logic++
		} else if (op ~ /^v_xor3_b32/) {
			fold += 2
		} else if (op ~ /^v_xor_b32/) {
			fold++
		} else if (op ~ /^v_/) {
			other = other " " op
		}
	}
	want_fold = E >= 8 ? K * (E / 4 - 1) : 0
	why = ""
	if (K <= 0 || K % 8) why = why sprintf("; loop counter step not found or not a multiple of 8 (%d)", K)
	if (reads != K) why = why sprintf("; %d LDS reads for %d steps", reads, K)
	if (badw != "") why = why sprintf("; LDS reads not of %d bytes:%s", E, badw)
	if (logic != K) why = why sprintf("; %d v_and_or_b32 for %d steps", logic, K)
	if (fold != want_fold) why = why sprintf("; %d XOR reductions for %d steps (want %d)", fold, K, want_fold)
	if (other != "") why = why "; extra VALU ops:" other
	if (mem != "") why = why "; other memory ops:" mem
	if (why != "") {
		printf "BAD%s\n%s", substr(why, 2), loops[1]
		exit 0
	}
	for (i = 1; i <= n; i++) {
		split(L[i], f, /[ \t,]+/)
		if (f[2] ~ /^ds_(read|load)/) { rop = f[2]; break }
	}
	printf "OK %d steps per iteration: %d x %s, %d x v_and_or_b32, %d XOR reductions, no other VALU op\n", \
		K, reads, rop, logic, fold
}

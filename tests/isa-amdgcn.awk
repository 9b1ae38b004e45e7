# SPDX-License-Identifier: MIT
# Reads AMDGPU assembly (clang -S) of a lane-table kernel and checks its timed loop:
#   awk -v KIND=chase|store|atomic -v E=bytes [-v KNOWN=tag] -f isa-amdgcn.awk file.s
# Prints one line, then the loop: "OK <summary>", "BAD <reasons>", "KNOWN <reasons>" (every
# broken rule is tagged in KNOWN: a known problem of the kernel) or "XPASS <summary>" (KNOWN is
# set but nothing is broken: the known problem is gone).
#
# The loop: a basic block that ends in a conditional branch back to its own label (LLVM keeps
# the unrolled chain in one block), and that holds the kernel's access: an LDS read (chase), an
# LDS write (store) or an LDS atomic (atomic); there must be exactly one. The fill loop before
# the barrier of chase and atomic has LDS writes only.
#
# Steps per iteration K: the immediate that the loop adds to the scalar register it compares
# (s_add_i32/s_add_u32 sN, sN, K ... s_cmp_* sN, ...); the source unrolls by 8, the compiler may
# unroll further. Counting by K, not by position, makes the check independent of scheduling.
#
# Per step, exactly one access of E bytes (ds_read2*, ds_write2*, b96 or any other width is a
# split or widened access), and on the vector ALU only what the source implies:
#   chase   ds_read_u8/u16/b32/b64/b128 (gfx9, gfx10) or ds_load_* (gfx11+); one v_and_or_b32
#           (off = start | (v & mask)); the fold of an 8- or 16-byte element to 32 bits: E/4 - 1
#           XOR reductions (v_xor_b32 counts 1, v_xor3_b32 2);
#   store   ds_write_b8/b16/b32/b64/b128 or ds_store_* (gfx11+); one address op, v_and_or_b32
#           or v_or_b32 (the AND of the uniform counter may go to the scalar unit); the step
#           counter in a VGPR: at most one dword moved or added (v_mov_b32, v_add*_u32) per
#           step, v_pk_mov_b32 and v_mov_b64 count 2 [tag: value];
#   atomic  ds_add_rtn_u32 (E 4) or ds_add_rtn_u64 (E 8), same names on gfx11; one v_and_or_b32
#           (off = start | (old & mask)).
# Nothing else: no other vector op (a v_add of an LDS base, a shift, a copy), no other memory
# access (global, flat, buffer, scratch: a spill; another LDS op), no call. Scalar loop control
# (s_*) is free. A gfx11 dual-issue line (v_dual_X :: v_dual_Y) counts as its two ops.

function width(op) {
	if (op ~ /^ds_(read|load|write|store)2/ || op ~ /_2addr/ || op ~ /_b96$/) return -1
	if (op ~ /_[uib]8(_d16)?(_hi)?$/) return 1
	if (op ~ /_[uib]16(_d16)?(_hi)?$/) return 2
	if (op ~ /_[bu]32$/) return 4
	if (op ~ /_[bu]64$/) return 8
	if (op ~ /_b128$/) return 16
	return -1
}
function isread(op) { return op ~ /^ds_(read|load)/ }
function iswrite(op) { return op ~ /^ds_(write|store)/ }
function isatomic(op) {
	return op ~ /^ds_/ && !isread(op) && !iswrite(op) && op !~ /^ds_(nop|swizzle|permute|bpermute)/
}
function isaccess(op) {
	return KIND == "store" ? iswrite(op) : KIND == "atomic" ? isatomic(op) : isread(op)
}
# A broken rule: REASON, tagged TAG (KNOWN lists the tags of known problems).
function broken(tag, reason) {
	why = why "; " reason
	if (index(" " KNOWN " ", " " tag " ") == 0) unknown = 1
}

BEGIN {
	if (KIND == "") KIND = "chase"
	if (KIND != "chase" && KIND != "store" && KIND != "atomic") {
		print "BAD unknown KIND " KIND
		exit 1
	}
}

/^\.LBB[0-9_]+:/ { lab = $1; sub(/:$/, "", lab); body = ""; has = 0; next }
/^[ \t]*;/ || /^[ \t]*\./ || /^[ \t]*$/ { next }
/^[^ \t]/ { lab = ""; next }  # another label or symbol: not inside a numbered block
lab != "" {
	line = $0
	sub(/[ \t]*;.*/, "", line)
	body = body line "\n"
	if (isaccess($1)) has = 1
	if ($1 ~ /^s_cbranch_/ || $1 == "s_branch") {
		if ($2 == lab && has)
			loops[++nloops] = body
		lab = ""
	}
}

END {
	if (KIND != "chase" && KIND != "store" && KIND != "atomic") exit 1
	what = KIND == "store" ? "LDS writes" : KIND == "atomic" ? "LDS atomics" : "LDS reads"
	if (nloops != 1) {
		printf "BAD %d single-block loops with %s (want 1)\n", nloops, what
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
	acc = 0; aop = ""; badw = ""; logic = 0; fold = 0; value = 0; other = ""; mem = ""; calls = ""
	for (i = 1; i <= n; i++) {
		# Each op of the line: one, or the two halves of a gfx11 dual-issue (VOPD) line.
		nops = split(L[i], half, /::/)
		for (h = 1; h <= nops; h++) {
			split(half[h], f, /[ \t,]+/)
			op = f[1] == "" ? f[2] : f[1]
			sub(/^v_dual_/, "v_", op)
			if (op == "") continue
			if (isaccess(op)) {
				acc++
				if (aop == "") aop = op
				if (KIND == "atomic" ? op !~ /^ds_add_rtn_u(32|64)$/ || width(op) != E \
						     : width(op) != E)
					badw = badw " " op
			} else if (op ~ /^ds_/ || op ~ /^(global|flat|buffer|scratch|tbuffer)_/) {
				mem = mem " " op
			} else if (op ~ /^s_(swappc|setpc|call)_/) {
				calls = calls " " op
			} else if (op == "v_and_or_b32" || (KIND == "store" && op ~ /^v_or_b32/)) {
				logic++
			} else if (KIND == "chase" && op ~ /^v_xor3_b32/) {
				fold += 2
			} else if (KIND == "chase" && op ~ /^v_xor_b32/) {
				fold++
			} else if (KIND == "store" && op ~ /^v_(mov_b32|add_u32|add_nc_u32|add_co_u32|add_i32)/) {
				value++
			} else if (KIND == "store" && op ~ /^v_(pk_mov_b32|mov_b64)/) {
				value += 2
			} else if (op ~ /^v_/) {
				other = other " " op
			}
		}
	}
	logicop = KIND == "store" ? "address ops (v_and_or_b32, v_or_b32)" : "v_and_or_b32"
	want_fold = KIND == "chase" && E >= 8 ? K * (E / 4 - 1) : 0
	why = ""; unknown = 0
	if (K <= 0 || K % 8)
		broken("counter", sprintf("loop counter step not found or not a multiple of 8 (%d)", K))
	if (acc != K) broken("count", sprintf("%d %s for %d steps", acc, what, K))
	if (badw != "")
		broken("width", sprintf("%s not of the %d-byte %s:%s", what, E,
			KIND == "atomic" ? "ds_add_rtn" : "width", badw))
	if (logic != K) broken("logic", sprintf("%d %s for %d steps", logic, logicop, K))
	if (fold != want_fold)
		broken("fold", sprintf("%d XOR reductions for %d steps (want %d)", fold, K, want_fold))
	if (value > K)
		broken("value", sprintf("%d dwords of the stored value moved or added for %d steps (want at most %d)", value, K, K))
	if (other != "") broken("valu", "extra VALU ops:" other)
	if (mem != "") broken("mem", "other memory ops:" mem)
	if (calls != "") broken("call", "calls:" calls)
	summary = sprintf("%d steps per iteration: %d x %s, %d x %s", K, acc, aop, logic, logicop)
	if (KIND == "chase") summary = summary sprintf(", %d XOR reductions", fold)
	if (KIND == "store") summary = summary sprintf(", %d value dwords", value)
	summary = summary ", no other VALU op"
	if (why != "") {
		printf "%s%s\n%s", unknown ? "BAD " : "KNOWN ", substr(why, 3), loops[1]
		exit 0
	}
	printf "%s %s\n", KNOWN != "" ? "XPASS" : "OK", summary
}

# SPDX-License-Identifier: MIT
# Reads AMDGPU assembly (clang -S) of cl/transpose.cl and checks its LDS traffic:
#   awk -v E=bytes -v T=tile -v R=rows -f isa-amdgcn-transpose.awk file.s
# Prints "OK <summary>" or "BAD <reasons>".
#
# The transpose check times the naive, padded and swizzled variants against each other, so the
# variants must differ in their addresses only: each work-item writes T/R elements of E bytes to
# the tile and reads T/R back, in every variant. Counted in element accesses, not instructions:
# the naive tile's affine addresses let the compiler pair two accesses in one ds_read2 /
# ds_write2st64 (ds_load_2addr / ds_store_2addr_stride64 on gfx11), which padding and swizzling
# can prevent; that gives padded and swizzled more LDS instructions than naive (on gfx9 to
# gfx11, 32x8 tile: naive 4, padded 6, swizzled 8) but the same accesses, and the pairing does
# not change what the banks see. A split (b32 pieces of an 8-byte element), a widened or an
# extra access, or any other LDS op (an atomic) is wrong.

function pair(op) { return op ~ /^ds_(read|load|write|store)2/ || op ~ /_2addr/ }
function width(op) {
	if (op ~ /_b32$/) return 4
	if (op ~ /_b64$/) return 8
	return -1
}

/^cb_transpose_[a-z]+:/ { k = $1; sub(/:$/, "", k); sub(/^cb_transpose_/, "", k); seen[k] = 1; next }
/^\.Lfunc_end/ { k = ""; next }
k != "" && $1 ~ /^ds_/ {
	op = $1
	n = pair(op) ? 2 : 1
	ins[k]++
	if (op ~ /^ds_(read|load)/) rd[k] += n
	else if (op ~ /^ds_(write|store)/) wr[k] += n
	else { bad[k] = bad[k] " " op; next }
	if (width(op) != E) bad[k] = bad[k] " " op
}

END {
	want = T / R
	why = ""
	sum = ""
	split("naive padded swizzled", V, " ")
	for (i = 1; i <= 3; i++) {
		v = V[i]
		if (!(v in seen)) { why = why "; no cb_transpose_" v; continue }
		if (wr[v] + 0 != want || rd[v] + 0 != want)
			why = why sprintf("; %s: %d element writes and %d reads per work-item (want %d each)", \
				v, wr[v], rd[v], want)
		if (bad[v] != "")
			why = why sprintf("; %s: LDS ops that are not a %d-byte read or write:%s", v, E, bad[v])
		sum = sum sprintf(", %s %d", v, ins[v])
	}
	if (why != "") { printf "BAD %s\n", substr(why, 3); exit 0 }
	printf "OK %d element writes and %d reads per work-item in each variant; LDS instructions: %s\n", \
		want, want, substr(sum, 3)
}

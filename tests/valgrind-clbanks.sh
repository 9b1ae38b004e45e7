#!/bin/sh
# SPDX-License-Identifier: MIT
# clbanks under valgrind for make check-valgrind: any memory error or definite leak outside the
# OpenCL driver makes the command exit 99, which no test expects.
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--suppressions="$top_srcdir/tests/valgrind.supp" "$top_builddir/clbanks" "$@"

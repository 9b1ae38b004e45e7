#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 33, point 5: lint's CUDA test kernels on the hardware, for results/nvidia/
# lint-cuda-ncu.txt. On a machine with an NVIDIA GPU, nvcc and Nsight Compute, from the
# repository's root: builds results/nvidia/lint-cuda-xcheck.cu (which includes tests/lint/*.cu),
# and writes to DIR (default .) ncu.csv (shared wavefronts and shared instructions per kernel)
# and sass.txt (the kernels' shared loads and stores). Compare each kernel's wavefronts per
# instruction with lint's passes per sub-group access (tests/lint-cuda.test's commands,
# --format json: total_passes over total_passes - excess_passes, loads and stores apart).
set -e
out=${1:-.}
PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -1
nvcc -O2 -arch=sm_90 -I. -o "$out/lint-cuda-xcheck" results/nvidia/lint-cuda-xcheck.cu
"$out/lint-cuda-xcheck"
ncu --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum \
	"$out/lint-cuda-xcheck" >"$out/ncu.csv"
cuobjdump -sass "$out/lint-cuda-xcheck" | grep -E "Function|LDS|STS" >"$out/sass.txt" || true

/* SPDX-License-Identifier: MIT */
/* clbanks lint: device_launch_parameters.h names the same device header as cuda_runtime.h. */
#include "cuda_runtime.h"

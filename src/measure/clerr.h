/* SPDX-License-Identifier: MIT */
/* Symbolic names for OpenCL status codes, so every failure reads "call: NAME (number)". */
#ifndef CB_CLERR_H
#define CB_CLERR_H

#include <CL/cl.h>

/* The symbolic name of an OpenCL status code, or "UNKNOWN_ERROR" when it has none. */
const char *cb_cl_strerror(cl_int status);

/* A hint for codes that usually mean a driver reset (a watchdog), or NULL. */
const char *cb_cl_hint(cl_int status);

#endif

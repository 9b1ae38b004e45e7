/* SPDX-License-Identifier: MIT */
/* A short, stable id of the machine a run was made on, that does not give away its name: the
 * first 12 hex digits of SHA-256("clbanks host id" NUL MACHINE_ID NUL HOSTNAME). The machine id
 * (/etc/machine-id: 128 random bits) keeps the hostname from being guessed back from the id;
 * the hostname tells apart clones of one image that share a machine id. Pure computation: the
 * caller reads both. */
#ifndef CB_HOSTID_H
#define CB_HOSTID_H

#include <stddef.h>
#include <stdint.h>

#define CB_HOST_ID_LEN 12

/* SHA-256 (FIPS 180-4) of DATA[0..N-1] into OUT. */
void cb_sha256(const void *data, size_t n, uint8_t out[32]);

/* The id of MACHINE_ID (NULL or "": none) and HOSTNAME (NULL or "": none) into OUT:
 * CB_HOST_ID_LEN lower-case hex digits and a NUL. */
void cb_host_id(const char *machine_id, const char *hostname, char out[CB_HOST_ID_LEN + 1]);

#endif

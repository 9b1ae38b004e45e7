/* SPDX-License-Identifier: MIT */
/* Signals: SIGINT, SIGTERM, SIGHUP and SIGQUIT ask clbanks to stop (cb_stop_signal, polled by
 * long work); a second one, or one that arrives while a temporary output file exists, removes that
 * file, kills the program core/child.c runs (cb_child_pid, clang for lint) and ends the
 * process at once. SIGXFSZ is ignored so that a file-size limit is a failed write (exit 4)
 * rather than a killed process. */
#ifndef CB_SIGNALS_H
#define CB_SIGNALS_H

#include "core/error.h"

void cb_signals_install(void);
/* Installs them again once the OpenCL drivers are loaded: LLVM (in PoCL and other drivers)
 * puts its own handlers in front, and its handler of SIGQUIT and SIGXFSZ restores ours but
 * drops the signal, so the first Ctrl-\ of a run was lost; its handler of SIGUSR1 kept
 * that signal from ending the process. */
void cb_signals_reclaim(void);
/* The temporary file a signal must remove (NULL: none). Copied; call before creating it. */
void cb_signals_set_tempfile(const char *path);

#endif

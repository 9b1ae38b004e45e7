/* SPDX-License-Identifier: MIT */
/* How library code tells the user something without printing: progress, warnings and detail go
 * to a callback that the CLI provides (and that tests can record). */
#ifndef CB_NOTIFY_H
#define CB_NOTIFY_H

typedef enum {
	CB_NOTE_PROGRESS, /* transient: "round 3 of at most 30" */
	CB_NOTE_INFO,     /* what is being done: "measuring X (platform), throughput regime" */
	CB_NOTE_WARNING,  /* something the user should know; the run goes on */
	CB_NOTE_DETAIL    /* for --verbose */
} cb_note_kind;

typedef struct {
	void (*fn)(void *ctx, cb_note_kind kind, const char *text);
	void *ctx;
} cb_notifier;

/* Formats and passes a note on; a NULL notifier or function drops it. */
void cb_note(const cb_notifier *n, cb_note_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif

/* An incremental JSON reader over a FILE* or a buffer: the byte-level
 * tokenizer the schedule reader uses to stream a file's "rounds" one round
 * at a time instead of loading the whole document (RFC 8259 grammar). It
 * validates syntax, never builds a tree; the text of a value can be
 * captured into a growable buffer (bounded) to be parsed by jansson. */
#ifndef MG_JSON_STREAM_H
#define MG_JSON_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* a growable byte buffer; len never exceeds limit */
typedef struct mg_jbuf {
  char *p;
  size_t len, cap, limit;
} mg_jbuf;

enum { MG_JS_OK = 0, MG_JS_SYNTAX, MG_JS_IO, MG_JS_NOMEM, MG_JS_TOO_LARGE };

#define MG_JS_MAX_DEPTH 2048
#define MG_JS_WINDOW    (1u << 16)

typedef struct mg_jsr {
  FILE *f;                  /* NULL: reading mem */
  const unsigned char *mem; /* the buffer, or NULL */
  const unsigned char *win; /* the current window: buf or mem */
  size_t pos, len;          /* position and length in win */
  uint64_t base;            /* offset of win[0] */
  long line;                /* 1-based line of the next byte */
  mg_jbuf *cap;             /* when set, consumed bytes are appended */
  int cap_fail;             /* MG_JS_NOMEM / MG_JS_TOO_LARGE once a capture failed */
  char msg[112];            /* the last error, one line */
  unsigned char stack[MG_JS_MAX_DEPTH];
  unsigned char buf[MG_JS_WINDOW];
} mg_jsr;

void mg_jsr_init_file(mg_jsr *r, FILE *f);
void mg_jsr_init_mem(mg_jsr *r, const char *data, size_t len);
/* the next byte without consuming it (after whitespace if ws), -1 at the end */
int mg_jsr_peek(mg_jsr *r, int ws);
uint64_t mg_jsr_offset(const mg_jsr *r);
/* Moves to offset off, which is on line line; MG_JS_IO if it cannot. */
int mg_jsr_seek(mg_jsr *r, uint64_t off, long line);
/* Consumes byte c (after whitespace); MG_JS_SYNTAX if the next byte is not c. */
int mg_jsr_expect(mg_jsr *r, int c);
/* Consumes a string (after whitespace); its decoded text is compared with want (ASCII):
 * *equal is 1 when they are the same. */
int mg_jsr_string(mg_jsr *r, const char *want, int *equal);
/* Consumes one whole value (any JSON), checking its syntax. */
int mg_jsr_skip(mg_jsr *r);

int mg_jbuf_put(mg_jbuf *b, const char *s, size_t n);
void mg_jbuf_free(mg_jbuf *b);

#endif

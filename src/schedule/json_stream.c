/* An incremental JSON tokenizer (the grammar of RFC 8259, "The JavaScript
 * Object Notation (JSON) Data Interchange Format", Bray) over a FILE* read
 * through a 64 KiB window, or over a buffer in memory. The schedule reader
 * (import.c) walks a file's top-level object with it and streams the
 * "rounds" array one round at a time, so that reading a schedule takes
 * memory in proportion to its largest round, not to the file (jansson's
 * tree takes about 18 bytes per byte of file). It checks syntax only;
 * what a value means (and the finer JSON rules: UTF-8, surrogates, number
 * ranges, duplicate keys) is left to jansson on the captured text of the
 * values the reader keeps. Nesting is bounded (MG_JS_MAX_DEPTH, jansson's
 * own limit) and walked without recursion, so hostile input cannot
 * exhaust the stack. */
#include "json_stream.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void mg_jsr_init_file(mg_jsr *r, FILE *f) {
  memset(r, 0, offsetof(mg_jsr, stack));
  r->f = f;
  r->win = r->buf;
  r->line = 1;
}

void mg_jsr_init_mem(mg_jsr *r, const char *data, size_t len) {
  memset(r, 0, offsetof(mg_jsr, stack));
  r->mem = (const unsigned char *)data;
  r->win = r->mem;
  r->len = data ? len : 0;
  r->line = 1;
}

static int refill(mg_jsr *r) {
  if (!r->f) return 0;
  r->base += r->len;
  r->pos = 0;
  r->len = fread(r->buf, 1, sizeof r->buf, r->f);
  return r->len > 0;
}

static inline int peekc(mg_jsr *r) {
  if (r->pos == r->len && !refill(r)) return -1;
  return r->win[r->pos];
}

int mg_jbuf_put(mg_jbuf *b, const char *s, size_t n) {
  if (n > b->limit - b->len) return MG_JS_TOO_LARGE;
  if (b->len + n > b->cap) {
    size_t c = b->cap ? b->cap : 256;
    while (c < b->len + n)
      c = c > SIZE_MAX / 2 ? SIZE_MAX : c * 2;
    char *p = realloc(b->p, c);
    if (!p) return MG_JS_NOMEM;
    b->p = p;
    b->cap = c;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  return MG_JS_OK;
}

void mg_jbuf_free(mg_jbuf *b) {
  free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

static inline int getc_(mg_jsr *r) {
  int c = peekc(r);
  if (c < 0) return -1;
  r->pos++;
  if (c == '\n') r->line++;
  if (r->cap && !r->cap_fail) {
    mg_jbuf *b = r->cap;
    if (b->len < b->cap && b->len < b->limit) {
      b->p[b->len++] = (char)c;
    } else {
      char ch = (char)c;
      r->cap_fail = mg_jbuf_put(b, &ch, 1);
    }
  }
  return c;
}

static int fail(mg_jsr *r, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(mg_jsr *r, int code, const char *fmt, ...) {
  va_list ap;
  int n = snprintf(r->msg, sizeof r->msg, "line %ld: ", r->line);
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < sizeof r->msg) vsnprintf(r->msg + n, sizeof r->msg - (size_t)n, fmt, ap);
  va_end(ap);
  return code;
}

/* the error for byte c where it was not expected (c < 0: the end) */
static int bad(mg_jsr *r, int c) {
  if (c < 0) {
    if (r->f && ferror(r->f)) return fail(r, MG_JS_IO, "read error");
    return fail(r, MG_JS_SYNTAX, "unexpected end of input");
  }
  if (c > 0x20 && c < 0x7f) return fail(r, MG_JS_SYNTAX, "unexpected '%c'", c);
  return fail(r, MG_JS_SYNTAX, "unexpected byte 0x%02x", (unsigned)c);
}

/* what the capture failed with, if it did; else st */
static int done(mg_jsr *r, int st) {
  if (st == MG_JS_OK && r->cap_fail) {
    if (r->cap_fail == MG_JS_NOMEM) return fail(r, MG_JS_NOMEM, "out of memory");
    return fail(r, MG_JS_TOO_LARGE, "a value of more than %zu bytes", r->cap->limit);
  }
  return st;
}

static void skip_ws(mg_jsr *r) {
  for (;;) {
    int c = peekc(r);
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
    getc_(r);
  }
}

int mg_jsr_peek(mg_jsr *r, int ws) {
  if (ws) skip_ws(r);
  return peekc(r);
}

uint64_t mg_jsr_offset(const mg_jsr *r) { return r->base + r->pos; }

int mg_jsr_seek(mg_jsr *r, uint64_t off, long line) {
  r->line = line;
  if (!r->f) {
    if (off > r->len) return fail(r, MG_JS_IO, "seek past the end");
    r->pos = (size_t)off;
    return MG_JS_OK;
  }
  if (off > (uint64_t)INT64_MAX || fseeko(r->f, (off_t)off, SEEK_SET) != 0) return fail(r, MG_JS_IO, "cannot seek");
  r->base = off;
  r->pos = r->len = 0;
  return MG_JS_OK;
}

int mg_jsr_expect(mg_jsr *r, int c) {
  skip_ws(r);
  int got = peekc(r);
  if (got != c) return bad(r, got);
  getc_(r);
  return done(r, MG_JS_OK);
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int mg_jsr_string(mg_jsr *r, const char *want, int *equal) {
  skip_ws(r);
  int c = peekc(r);
  if (c != '"') return bad(r, c);
  getc_(r);
  size_t k = 0;
  int eq = want != NULL;
  for (;;) {
    c = peekc(r);
    if (c < 0) return bad(r, c);
    if (c < 0x20) return fail(r, MG_JS_SYNTAX, "control character 0x%02x in a string", (unsigned)c);
    getc_(r);
    if (c == '"') break;
    int ch = c;
    if (c == '\\') {
      c = peekc(r);
      switch (c) {
      case '"':
      case '\\':
      case '/': ch = c; break;
      case 'b': ch = '\b'; break;
      case 'f': ch = '\f'; break;
      case 'n': ch = '\n'; break;
      case 'r': ch = '\r'; break;
      case 't': ch = '\t'; break;
      case 'u': ch = 0; break;
      default: return c < 0 ? bad(r, c) : fail(r, MG_JS_SYNTAX, "invalid escape in a string");
      }
      getc_(r);
      if (c == 'u') {
        for (int h = 0; h < 4; h++) {
          int v = hexval(peekc(r));
          if (v < 0) return fail(r, MG_JS_SYNTAX, "invalid \\u escape in a string");
          getc_(r);
          ch = ch * 16 + v;
        }
        if (ch >= 0x80) ch = 256; /* equal to no ASCII character */
      }
    }
    if (eq) {
      if (want[k] && (unsigned char)want[k] == ch)
        k++;
      else
        eq = 0;
    }
  }
  if (equal) *equal = eq && !want[k];
  return done(r, MG_JS_OK);
}

static int number(mg_jsr *r) {
  int c = peekc(r);
  if (c == '-') {
    getc_(r);
    c = peekc(r);
  }
  if (c == '0') {
    getc_(r);
  } else if (c >= '1' && c <= '9') {
    while (is_digit(peekc(r)))
      getc_(r);
  } else {
    return bad(r, c);
  }
  if (peekc(r) == '.') {
    getc_(r);
    if (!is_digit(peekc(r))) return bad(r, peekc(r));
    while (is_digit(peekc(r)))
      getc_(r);
  }
  c = peekc(r);
  if (c == 'e' || c == 'E') {
    getc_(r);
    c = peekc(r);
    if (c == '+' || c == '-') getc_(r);
    if (!is_digit(peekc(r))) return bad(r, peekc(r));
    while (is_digit(peekc(r)))
      getc_(r);
  }
  return MG_JS_OK;
}

static int literal(mg_jsr *r, const char *word) {
  for (const char *w = word; *w; w++) {
    int c = peekc(r);
    if (c != (unsigned char)*w) return bad(r, c);
    getc_(r);
  }
  return MG_JS_OK;
}

int mg_jsr_skip(mg_jsr *r) {
  size_t depth = 0;
  int st, c;
value:
  skip_ws(r);
  c = peekc(r);
  switch (c) {
  case '{':
  case '[':
    if (depth == MG_JS_MAX_DEPTH) return fail(r, MG_JS_SYNTAX, "nesting deeper than %d", MG_JS_MAX_DEPTH);
    getc_(r);
    skip_ws(r);
    if (peekc(r) == (c == '{' ? '}' : ']')) {
      getc_(r);
      goto after;
    }
    r->stack[depth++] = (unsigned char)c;
    if (c == '[') goto value;
    goto key;
  case '"': st = mg_jsr_string(r, NULL, NULL); break;
  case 't': st = literal(r, "true"); break;
  case 'f': st = literal(r, "false"); break;
  case 'n': st = literal(r, "null"); break;
  default: st = c == '-' || is_digit(c) ? number(r) : bad(r, c); break;
  }
  if (st != MG_JS_OK) return st;
after:
  if (r->cap_fail) return done(r, MG_JS_OK);
  if (depth == 0) return done(r, MG_JS_OK);
  skip_ws(r);
  c = peekc(r);
  if (c == ',') {
    getc_(r);
    if (r->stack[depth - 1] == '[') goto value;
    goto key;
  }
  if (c == (r->stack[depth - 1] == '{' ? '}' : ']')) {
    getc_(r);
    depth--;
    goto after;
  }
  return bad(r, c);
key:
  skip_ws(r);
  if ((st = mg_jsr_string(r, NULL, NULL)) != MG_JS_OK) return st;
  if ((st = mg_jsr_expect(r, ':')) != MG_JS_OK) return st;
  goto value;
}

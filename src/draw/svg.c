/* SVG writer helpers: formatted appends, escaping, palettes, and the
 * mg_text buffer's output (to a FILE*, or atomically to a path through
 * mg_outfile, as the schedule files are written). */
#include "svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void mg_text_free(mg_text *t) {
  if (!t) return;
  free(t->s);
  t->s = NULL;
  t->len = t->cap = 0;
}

mg_status mg_text_fwrite(const mg_text *t, FILE *f, mg_err *err) {
  if (!t || !f) return mg_fail(err, MG_ERR_INVALID, "mg_text_fwrite: a text and a stream are needed");
  if (t->len && fwrite(t->s, 1, t->len, f) != t->len) return mg_fail(err, MG_ERR_IO, "write error");
  if (fflush(f) != 0) return mg_fail(err, MG_ERR_IO, "write error");
  return MG_OK;
}

mg_status mg_text_save(const mg_text *t, const char *path, mg_err *err) {
  mg_outfile o;
  if (!t) return mg_fail(err, MG_ERR_INVALID, "mg_text_save: no text to save");
  if (!path || !*path) return mg_fail(err, MG_ERR_INVALID, "no output path");
  mg_status st = mg_outfile_open(&o, path, err);
  if (st != MG_OK) return st;
  int bad = t->len && fwrite(t->s, 1, t->len, o.f) != t->len;
  st = mg_outfile_close(&o, !bad, err);
  return bad && st == MG_OK ? mg_fail(err, MG_ERR_IO, "cannot write '%s'", path) : st;
}

void mg_svg_printf(svg_w *w, const char *fmt, ...) {
  if (w->failed) return;
  mg_text *t = w->out;
  for (int pass = 0; pass < 2; pass++) {
    size_t room = t->cap - t->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? room : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      w->failed = 1;
      return;
    }
    if ((size_t)n < room) {
      t->len += (size_t)n;
      return;
    }
    size_t need = t->len + (size_t)n + 1, cap = t->cap ? t->cap : 4096;
    while (cap < need)
      cap *= 2;
    char *s = realloc(t->s, cap);
    if (!s) {
      w->failed = 1;
      return;
    }
    t->s = s;
    t->cap = cap;
  }
}

/* Length of the well-formed UTF-8 sequence at s (1 to 4), or 0 if the
 * bytes there are not one (a stray continuation byte, an overlong form, a
 * surrogate, past U+10FFFF, cut short); its code point in *cp. */
static int utf8_seq(const unsigned char *s, uint32_t *cp) {
  unsigned char c = s[0];
  int n;
  uint32_t v, lo2 = 0x80, hi2 = 0xBF;
  if (c < 0x80) return *cp = c, 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, v = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, v = c & 0x0F, lo2 = c == 0xE0 ? 0xA0 : 0x80, hi2 = c == 0xED ? 0x9F : 0xBF;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, v = c & 0x07, lo2 = c == 0xF0 ? 0x90 : 0x80, hi2 = c == 0xF4 ? 0x8F : 0xBF;
  else
    return 0;
  for (int k = 1; k < n; k++) {
    /* the NUL that ends the string is no continuation byte: no read past it */
    if (s[k] < (k == 1 ? lo2 : 0x80) || s[k] > (k == 1 ? hi2 : 0xBF)) return 0;
    v = v << 6 | (s[k] & 0x3F);
  }
  *cp = v;
  return n;
}

/* Characters XML forbids (C0 controls but tab, newline and return;
 * U+FFFE, U+FFFF) and those HTML calls parse errors (DEL, C1 controls,
 * noncharacters): a label holding one would make the SVG or the report
 * unreadable to a strict parser. */
static int unfit(uint32_t cp) {
  if (cp < 0x20) return cp != '\t' && cp != '\n' && cp != '\r';
  return (cp >= 0x7F && cp <= 0x9F) || (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

void mg_svg_esc(svg_w *w, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  while (p && *p) {
    uint32_t cp;
    int n = utf8_seq(p, &cp);
    if (n == 0 || unfit(cp)) {
      /* U+FFFD REPLACEMENT CHARACTER, one per bad byte or unfit character */
      mg_svg_printf(w, "\xEF\xBF\xBD");
      p += n ? n : 1;
      continue;
    }
    switch (cp) {
    case '&': mg_svg_printf(w, "&amp;"); break;
    case '<': mg_svg_printf(w, "&lt;"); break;
    case '>': mg_svg_printf(w, "&gt;"); break;
    case '"': mg_svg_printf(w, "&quot;"); break;
    default: mg_svg_printf(w, "%.*s", n, (const char *)p);
    }
    p += n;
  }
}

mg_status mg_svg_status(const svg_w *w, mg_err *err) {
  return w->failed ? mg_fail(err, MG_ERR_NOMEM, "out of memory while drawing") : MG_OK;
}

void mg_svg_open(svg_w *w, double width, double height, const char *title) {
  mg_svg_printf(w,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n<title>",
                width, height, width, height);
  mg_svg_esc(w, title);
  mg_svg_printf(w, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
}

void mg_svg_close(svg_w *w) { mg_svg_printf(w, "</svg>\n"); }

/* A rejected schedule's picture shows fewer rounds than the schedule has;
 * without this banner it would pass for a complete, valid one. */
void mg_svg_rejected(svg_w *w, const mg_trace *t, double x, double y, const char *drawn) {
  const mg_violation *v = &t->violation;
  if (!t->rejected) return;
  mg_svg_printf(w, "<g class=\"violation\" data-rule=\"%s\" data-round=\"%lld\" fill=\"#b00020\" font-size=\"12\">",
                mg_rule_name(v->rule), (long long)v->round);
  mg_svg_printf(w, "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">REJECTED: ", x, y);
  if (v->round < 0)
    mg_svg_printf(w, "the schedule ends incomplete");
  else
    mg_svg_printf(w, "round %lld", (long long)v->round);
  mg_svg_printf(w, " breaks the %s rule", mg_rule_name(v->rule));
  if (v->round >= 0 && t->info.rounds_hint > 0)
    mg_svg_printf(w, " (the schedule has %lld rounds)", (long long)t->info.rounds_hint);
  mg_svg_printf(w, "</text><text x=\"%.1f\" y=\"%.1f\">", x, y + 15);
  mg_svg_esc(w, v->msg);
  mg_svg_printf(w, "</text><text x=\"%.1f\" y=\"%.1f\">", x, y + 30);
  mg_svg_esc(w, drawn);
  mg_svg_printf(w, "</text></g>\n");
}

/* ColorBrewer YlGnBu-like, light to dark; the lightest is still visible on
 * white. */
static const char *seq[SVG_NSEQ] = {"#a1dab4", "#7fcdbb", "#41b6c4", "#1d91c0", "#225ea8", "#253494", "#081d58"};

const char *mg_svg_seq(int k) { return seq[k < 0 ? 0 : k >= SVG_NSEQ ? SVG_NSEQ - 1 : k]; }

/* Okabe & Ito's colour-blind safe set, then Paul Tol's. */
static const char *cat[SVG_NCAT] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
                                    "#882255", "#117733", "#999933", "#332288", "#AA4499", "#661100"};

const char *mg_svg_cat(int k) { return cat[((k % SVG_NCAT) + SVG_NCAT) % SVG_NCAT]; }

/* white -> yellow -> orange -> dark red */
const char *mg_svg_heat(double v, char buf[8]) {
  static const double stops[4][3] = {{255, 255, 255}, {254, 217, 118}, {240, 59, 32}, {128, 0, 38}};
  if (!(v > 0)) v = 0;
  if (v > 1) v = 1;
  double p = v * 3;
  int k = p >= 3 ? 2 : (int)p;
  double f = p - k;
  int c[3];
  for (int i = 0; i < 3; i++)
    c[i] = (int)lround(stops[k][i] + (stops[k + 1][i] - stops[k][i]) * f);
  snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
  return buf;
}

const char *mg_svg_bytes(double b, char *buf, size_t len) {
  const char *unit[] = {"", "K", "M", "G", "T"};
  if (!isfinite(b)) return snprintf(buf, len, "-"), buf; /* no "nan" in a picture */
  int u = 0;
  while (b >= 1024 && u < 4)
    b /= 1024, u++;
  snprintf(buf, len, "%g%s", b, unit[u]);
  return buf;
}

const char *mg_svg_num(double v, char *buf, size_t len) {
  if (!isfinite(v)) return snprintf(buf, len, "-"), buf; /* no "nan" in a picture */
  snprintf(buf, len, "%.4g", v);
  return buf;
}

const char *mg_svg_model(const mg_model *m, char *buf, size_t len) {
  int n = snprintf(buf, len, "%s, %s-port, %s, ts=%g, td=%g, tl=%g", mg_switching_name(m->switching),
                   mg_port_name(m->port), mg_contention_name(m->contention), m->ts, m->td, m->tl);
  if (m->ell && n > 0 && (size_t)n < len) snprintf(buf + n, len - (size_t)n, ", ell=%llu", (unsigned long long)m->ell);
  return buf;
}

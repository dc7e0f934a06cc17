/* SVG writer helpers shared by the pictures: formatted appends to an
 * mg_text buffer (the first failure sticks), XML escaping, the colour and
 * marker palettes. Internal to src/draw. */
#ifndef MG_DRAW_SVG_H
#define MG_DRAW_SVG_H

#include "../util/internal.h"
#include "meshgossip_draw.h"

/* A writer: appends go to out; after an allocation failure every later
 * append is a no-op and mg_svg_status reports MG_ERR_NOMEM. */
typedef struct svg_w {
  mg_text *out;
  int failed;
} svg_w;

void mg_svg_printf(svg_w *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s (NULL: nothing) as XML/HTML text or attribute value: &, <, >
 * and " escaped; invalid UTF-8 and characters XML forbids or HTML calls
 * parse errors (C0 controls but tab, newline, return; DEL; C1 controls;
 * noncharacters) replaced with U+FFFD, one per bad byte or character. */
void mg_svg_esc(svg_w *w, const char *s);
mg_status mg_svg_status(const svg_w *w, mg_err *err);

/* Opens an <svg> of the given size with a white background and the
 * default font; mg_svg_close ends it. */
void mg_svg_open(svg_w *w, double width, double height, const char *title);
void mg_svg_close(svg_w *w);
/* A rejected trace (t->rejected): three lines in red at (x, y) down to
 * y + SVG_REJECTED_H - 12 — the rule and round the schedule broke, the
 * simulator's message, and `drawn` (what the picture shows); one <g
 * class="violation" data-rule data-round>. Nothing for a valid trace. */
#define SVG_REJECTED_H 46.0
void mg_svg_rejected(svg_w *w, const mg_trace *t, double x, double y, const char *drawn);

/* Sequential palette for item counts (light to dark, colour-blind safe):
 * SVG_NSEQ colours. */
#define SVG_NSEQ 7
const char *mg_svg_seq(int k);
/* Categorical palette: SVG_NCAT distinct colours (Okabe-Ito and Tol). */
#define SVG_NCAT 12
const char *mg_svg_cat(int k);
/* Heat colour of v in [0, 1] as "#rrggbb" into buf (white for 0). */
const char *mg_svg_heat(double v, char buf[8]);

/* "1.5K", "32K", "1M": a byte count in powers of 1024 ("-" if not finite). */
const char *mg_svg_bytes(double b, char *buf, size_t len);
/* The model in short: "wormhole, all-port, shared, ts=0.0003, td=0, tl=2.2e-08". */
const char *mg_svg_model(const mg_model *m, char *buf, size_t len);
/* A short number for captions ("0.0123", "1.2e-05"; "-" if not finite). */
const char *mg_svg_num(double v, char *buf, size_t len);

#endif

/* libFuzzer harness: the line plots (mg_draw_plot, mg_draw_sweep), which
 * draw what `meshgossip plot FILE.csv` reads and what compare --sizes and
 * report compute: any double (NaN, infinities, subnormals, +-DBL_MAX,
 * ranges that overflow a subtraction), any label bytes (invalid UTF-8,
 * control characters, markup). The input is binary: one byte of options
 * (bit 0 log x, 1 log y, 2 x in bytes, 3 the sweep instead, 4-6 panels - 1,
 * 7 a title), then per panel a byte of series count, per series a byte of
 * style and one of point count, then labels (a length byte and the bytes)
 * and little-endian doubles; what the input lacks is NaN or empty.
 * Besides no crash, leak or hang: the SVG is well-formed XML (expat) and no
 * attribute but a label holds "nan" or "inf" (a coordinate or a range the
 * axes could not fit). */
#include "meshgossip.h"
#include "meshgossip_draw.h"

#include <expat.h>
#include <math.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct mg_fz {
  const uint8_t *p;
  size_t n;
} mg_fz;

static unsigned mg_fz_byte(mg_fz *f) {
  if (!f->n) return 0;
  f->n--;
  return *f->p++;
}

static double mg_fz_double(mg_fz *f) {
  double x = NAN;
  if (f->n >= sizeof x) {
    memcpy(&x, f->p, sizeof x);
    f->p += sizeof x, f->n -= sizeof x;
  }
  return x;
}

/* a label of up to 31 bytes, NUL-terminated (a NUL inside ends it early) */
static const char *mg_fz_label(mg_fz *f, char *buf) {
  size_t len = mg_fz_byte(f) & 31, k = 0;
  while (k < len && f->n)
    buf[k++] = (char)mg_fz_byte(f);
  buf[k] = 0;
  return buf;
}

/* "nan" or "inf" in any case: how printf writes a value no axis holds */
static int mg_fz_nonfinite(const char *s) {
  for (; *s; s++) {
    char a = (char)tolower((unsigned char)s[0]), b = a ? (char)tolower((unsigned char)s[1]) : 0,
         c = b ? (char)tolower((unsigned char)s[2]) : 0;
    if ((a == 'n' && b == 'a' && c == 'n') || (a == 'i' && b == 'n' && c == 'f')) return 1;
  }
  return 0;
}

static void mg_fz_start(void *user, const XML_Char *name, const XML_Char **atts) {
  (void)user;
  (void)name;
  for (int i = 0; atts[i]; i += 2) {
    if (!strcmp(atts[i], "data-name")) continue; /* a label: the input's own text */
    if (mg_fz_nonfinite(atts[i + 1])) __builtin_trap();
  }
}

static void mg_fz_check_svg(const mg_text *t) {
  if (!t->len) __builtin_trap();
  XML_Parser xp = XML_ParserCreate("UTF-8");
  if (!xp) return;
  XML_SetStartElementHandler(xp, mg_fz_start);
  if (XML_Parse(xp, t->s, (int)t->len, 1) == XML_STATUS_ERROR) __builtin_trap();
  XML_ParserFree(xp);
}

#define MG_FZ_POINTS 32

static void mg_fz_plot(mg_fz *f, unsigned opt) {
  static char labels[8 * (15 + 2) + 3][32]; /* per series, panel title and y label; the plot's three */
  static double xs[8][16][MG_FZ_POINTS], ys[8][16][MG_FZ_POINTS];
  mg_plot_series series[8][16];
  mg_plot_panel panels[8];
  size_t np = ((opt >> 4) & 7) + 1, nl = 0;
  for (size_t k = 0; k < np; k++) {
    size_t ns = mg_fz_byte(f) & 15; /* over MG_PLOT_MAX_SERIES: refused */
    for (size_t s = 0; s < ns; s++) {
      int style = (int)(mg_fz_byte(f) & 3); /* 3: refused */
      size_t n = mg_fz_byte(f) % (MG_FZ_POINTS + 1);
      series[k][s] = (mg_plot_series){mg_fz_label(f, labels[nl++]), xs[k][s], ys[k][s], n, style};
    }
    panels[k] = (mg_plot_panel){mg_fz_label(f, labels[nl++]), NULL, series[k], ns};
    if (mg_fz_byte(f) & 1) panels[k].ylabel = mg_fz_label(f, labels[nl++]);
  }
  mg_plot_opts o = {.logx = opt & 1, .logy = (opt >> 1) & 1, .xbytes = (opt >> 2) & 1};
  o.xlabel = mg_fz_label(f, labels[nl++]);
  o.ylabel = mg_fz_label(f, labels[nl++]);
  if (opt & 128) o.title = mg_fz_label(f, labels[nl++]);
  for (size_t k = 0; k < np; k++)
    for (size_t s = 0; s < panels[k].nseries; s++)
      for (size_t i = 0; i < series[k][s].n; i++)
        xs[k][s][i] = mg_fz_double(f), ys[k][s][i] = mg_fz_double(f);
  mg_text svg = {0};
  mg_err err = {{0}};
  mg_status st = mg_draw_plot(panels, np, &o, &svg, &err);
  if (st == MG_OK) mg_fz_check_svg(&svg);
  if (st != MG_OK && strchr(err.msg, '\n')) __builtin_trap();
  mg_text_free(&svg);
}

static void mg_fz_sweep(mg_fz *f, unsigned opt) {
  static const char *const topos[4] = {"ring:9", "torus:4x4", "mesh:2x3", "torus:3x3x3"};
  mg_problem_spec pb;
  mg_err err = {{0}};
  memset(&pb, 0, sizeof pb);
  pb.problem = opt & 1 ? MG_EXCHANGE : MG_GOSSIP;
  if (mg_topo_parse(topos[(opt >> 1) & 3], &pb.topo, &err) != MG_OK) __builtin_trap();
  mg_model_default(&pb.model);
  size_t ns = (mg_fz_byte(f) & 15) + 1, na = mg_algo_count();
  double sizes[16], *costs = calloc((na + 1) * ns, sizeof *costs);
  if (!costs) return;
  for (size_t k = 0; k < ns; k++)
    sizes[k] = mg_fz_double(f);
  /* most algorithms unpriced (NaN) as most are at a size; the input's
   * doubles go to the first ones and the bound */
  for (size_t i = 0; i < (na + 1) * ns; i++)
    costs[i] = NAN;
  for (size_t i = 0; i < (na + 1) * ns && f->n >= sizeof(double); i++) {
    size_t at = i < 12 * ns ? i : na * ns + (i - 12 * ns) % ns;
    costs[at] = mg_fz_double(f);
  }
  mg_text svg = {0};
  mg_status st = mg_draw_sweep(&pb, sizes, ns, costs, &svg, &err);
  if (st == MG_OK) mg_fz_check_svg(&svg);
  if (st != MG_OK && strchr(err.msg, '\n')) __builtin_trap();
  mg_text_free(&svg);
  free(costs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mg_fz f = {data, size};
  unsigned opt = mg_fz_byte(&f);
  if (opt & 8)
    mg_fz_sweep(&f, opt);
  else
    mg_fz_plot(&f, opt);
  return 0;
}

/* odori-timeline-draw.c: the timeline's snapshot and tooltips
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only what is in view is drawn: each track's symbols are sorted by start, so the
 * visible ones are found by binary search, and blocks narrower than a few pixels are
 * merged into one rectangle per run, which keeps a 10,000-symbol score as cheap to draw
 * as a short one.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "odori-score-edit.h"
#include "odori-timeline-private.h"

static const GdkRGBA palette[N_COLORS] = {
  { 0.21f, 0.52f, 0.89f, 1 },   /* blue */
  { 0.90f, 0.42f, 0.05f, 1 },   /* orange */
  { 0.15f, 0.62f, 0.40f, 1 },   /* green */
  { 0.57f, 0.27f, 0.68f, 1 },   /* purple */
  { 0.78f, 0.16f, 0.22f, 1 },   /* red */
  { 0.11f, 0.55f, 0.62f, 1 },   /* teal */
  { 0.60f, 0.42f, 0.20f, 1 },   /* brown */
  { 0.80f, 0.27f, 0.56f, 1 },   /* pink */
};
static const GdkRGBA unresolved_color = { 0.55f, 0.55f, 0.55f, 1 };
static const GdkRGBA accent = { 0.21f, 0.52f, 0.89f, 1 };
static const GdkRGBA playhead_color = { 0.89f, 0.11f, 0.14f, 1 };

static const GdkRGBA *
sym_color (OdoriTimeline *self,
           SymInfo       *info)
{
  if (info->motion == NULL)
    return &unresolved_color;
  return &palette[(self->color_by == ODORI_TIMELINE_COLOR_BY_CLASS ? info->class_no : info->show_no)
                  % N_COLORS];
}

static void
sym_info_layouts (OdoriTimeline *self,
                  const char    *symbol,
                  SymInfo       *info)
{
  g_autofree char *code = NULL;
  g_autofree char *full = NULL;

  if (info->code_layout != NULL)
    return;
  code = g_markup_printf_escaped ("<b>%s</b>", symbol);
  info->code_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_markup (info->code_layout, code, -1);
  pango_layout_get_pixel_size (info->code_layout, &info->code_w, NULL);
  if (info->motion != NULL && info->motion->name != NULL)
    full = g_markup_printf_escaped ("<b>%s</b>  %s", symbol, info->motion->name);
  else
    full = g_strdup (code);
  info->full_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_markup (info->full_layout, full, -1);
  pango_layout_get_pixel_size (info->full_layout, &info->full_w, NULL);
}

/* ---------------------------------------------------------------------------------- */
/* Drawing                                                                            */

typedef struct
{
  GdkRGBA fg;
  GdkRGBA dim;
  GdkRGBA lane;
  GdkRGBA lane_alt;
  GdkRGBA header_bg;
  GdkRGBA line;
  double  frame_time;
  guint   fps;
  guint   f0;         /* first and last frame in view */
  guint   f1;
  guint   end;        /* last frame of the dance */
  int     blend;
  int     width;
  int     height;
  gboolean focused;
} Paint;

static void
get_color (GtkWidget  *widget,
           const char *name,
           GdkRGBA    *rgba,
           const char *fallback)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, rgba))
    gdk_rgba_parse (rgba, fallback);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
paint_init (OdoriTimeline *self,
            Paint         *paint)
{
  GtkWidget *widget = GTK_WIDGET (self);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &paint->fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  get_color (widget, "theme_bg_color", &paint->header_bg, "#f6f5f4");
  paint->dim = paint->fg;
  paint->dim.alpha = 0.6f;
  paint->lane = paint->fg;
  paint->lane.alpha = 0.035f;
  paint->lane_alt = paint->fg;
  paint->lane_alt.alpha = 0.07f;
  paint->line = paint->fg;
  paint->line.alpha = 0.18f;
  paint->frame_time = _odori_timeline_frame_time (self);
  paint->fps = _odori_timeline_fps (self);
  paint->width = gtk_widget_get_width (widget);
  paint->height = gtk_widget_get_height (widget);
  paint->f0 = (guint) MAX (floor (_odori_timeline_frame_at_x_exact (self, HEADER_WIDTH)), 1);
  paint->f1 = (guint) MAX (ceil (_odori_timeline_frame_at_x_exact (self, paint->width)) + 1, 1);
  paint->end = _odori_timeline_dance_end (self);
  paint->blend = _odori_timeline_blend_frames (self);
  paint->focused = gtk_widget_has_focus (widget);
}

static void
rect (GtkSnapshot   *snapshot,
      const GdkRGBA *color,
      double         x,
      double         y,
      double         w,
      double         h)
{
  if (w <= 0 || h <= 0)
    return;
  gtk_snapshot_append_color (snapshot, color,
                             &GRAPHENE_RECT_INIT ((float) x, (float) y, (float) w, (float) h));
}

static void
outline (GtkSnapshot   *snapshot,
         const GdkRGBA *color,
         double         x,
         double         y,
         double         w,
         double         h,
         float          width)
{
  GskRoundedRect r;
  const float widths[4] = { width, width, width, width };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };

  if (w <= 2 * width || h <= 2 * width)
    return;
  gsk_rounded_rect_init_from_rect (&r, &GRAPHENE_RECT_INIT ((float) x, (float) y, (float) w, (float) h), 0);
  gtk_snapshot_append_border (snapshot, &r, widths, colors);
}

static void
layout_at (GtkSnapshot   *snapshot,
           PangoLayout   *layout,
           double         x,
           double         y_middle,
           const GdkRGBA *color)
{
  int h;

  pango_layout_get_pixel_size (layout, NULL, &h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x, (float) round (y_middle - h / 2.0)));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
text_at (OdoriTimeline *self,
         GtkSnapshot   *snapshot,
         const char    *markup,
         double         x,
         double         y_middle,
         double         max_width,
         const GdkRGBA *color)
{
  g_autoptr(PangoLayout) layout = NULL;

  if (max_width < 8)
    return;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_markup (layout, markup, -1);
  pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  layout_at (snapshot, layout, x, y_middle, color);
}

static void
lighten (GdkRGBA *c,
         float    by)
{
  c->red += (1 - c->red) * by;
  c->green += (1 - c->green) * by;
  c->blue += (1 - c->blue) * by;
}

/* A repeated symbol: a thin line where each copy after the first begins. */
static void
snapshot_repeats (OdoriTimeline    *self,
                  GtkSnapshot      *snapshot,
                  OdoriScoreSymbol *s,
                  SymInfo          *info,
                  double            top,
                  double            h,
                  guint             vis_end)
{
  static const GdkRGBA mark = { 1, 1, 1, 0.85f };
  static const GdkRGBA mark_shade = { 0, 0, 0, 0.35f };
  guint r = odori_symbol_mods_get_repeat (&s->mods);
  guint m = odori_symbol_mods_copy_frames (&s->mods, info->n);

  /* Closer than three pixels the marks would fill the block. */
  if (r < 2 || m * self->ppf < 3)
    return;
  for (guint k = 1; k < r; k++)
    {
      guint64 f = s->start + (guint64) k * m;
      double x;

      if (f >= vis_end)
        break;
      x = odori_timeline_x_for_frame (self, (double) f);
      if (x > gtk_widget_get_width (GTK_WIDGET (self)))
        break;
      rect (snapshot, &mark_shade, x + 1, top + 3, 1, h - 6);
      rect (snapshot, &mark, x, top + 3, 1, h - 6);
    }
}

/* The blend into the symbol as a ramp from its start (bottom) to BLEND frames on (top),
 * with a handle there that a drag moves. */
static void
snapshot_blend_ramp (OdoriTimeline    *self,
                     GtkSnapshot      *snapshot,
                     OdoriScoreSymbol *s,
                     guint             blend,
                     double            top,
                     double            h,
                     guint             vis_end,
                     gboolean          selected)
{
  static const GdkRGBA knob = { 1, 1, 1, 0.95f };
  static const GdkRGBA knob_edge = { 0, 0, 0, 0.55f };
  double x0 = odori_timeline_x_for_frame (self, s->start);
  double bx = odori_timeline_x_for_frame (self, MIN ((guint64) s->start + blend, vis_end));
  cairo_t *cr;

  if (bx - x0 >= 2)
    {
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT ((float) x0, (float) top,
                                                                     (float) (bx - x0 + 1), (float) h));
      cairo_set_source_rgba (cr, 1, 1, 1, s->mods.has_blend ? 0.9 : 0.55);
      cairo_set_line_width (cr, 1.5);
      cairo_move_to (cr, x0, top + h - 1);
      cairo_line_to (cr, bx, top + 1);
      cairo_stroke (cr);
      cairo_destroy (cr);
    }
  /* The handle: solid when the symbol has its own blend; else shown on the selected
   * block only (it would crowd the seam marks), though it answers the pointer anywhere. */
  if (!s->mods.has_blend && !selected)
    return;
  rect (snapshot, &knob_edge, bx - 3, top - 1, 6, BLEND_KNOB_H - 2);
  if (s->mods.has_blend)
    rect (snapshot, &knob, bx - 2, top, 4, BLEND_KNOB_H - 4);
  else
    outline (snapshot, &knob, bx - 2, top, 4, BLEND_KNOB_H - 4, 1);
}

/* The mirror glyph at X (middle Y) if it fits in ROOM; the width it takes. */
static double
snapshot_mirror_glyph (OdoriTimeline *self,
                       GtkSnapshot   *snapshot,
                       double         x,
                       double         y_middle,
                       double         room)
{
  static const GdkRGBA white = { 1, 1, 1, 1 };
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  int w;

  pango_layout_set_markup (layout, "<b>⇋</b>", -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  if (w + 3 > room)
    return 0;
  layout_at (snapshot, layout, x, y_middle, &white);
  return w + 3;
}

/* One block: the symbol's motion from X0 to X1, its hold to X2. */
static void
snapshot_block (OdoriTimeline    *self,
                GtkSnapshot      *snapshot,
                const Paint      *paint,
                OdoriScoreSymbol *s,
                SymInfo          *info,
                SymInfo          *prev,
                guint             track,
                double            y,
                guint             vis_end,
                guint             hold_end)
{
  static const GdkRGBA white = { 1, 1, 1, 1 };
  static const GdkRGBA shade = { 0, 0, 0, 0.25f };
  GdkRGBA color = *sym_color (self, info);
  gboolean selected = _odori_timeline_sel_contains (self, track, s->start);
  guint blend = s->mods.has_blend ? s->mods.blend : (guint) MAX (paint->blend, 0);
  double x0 = odori_timeline_x_for_frame (self, s->start);
  double x1 = odori_timeline_x_for_frame (self, vis_end);
  double top = y + BLOCK_INSET, h = ROW_HEIGHT - 2 * BLOCK_INSET;
  guint end = _odori_timeline_symbol_end (self, s);

  /* Held: after its last frame the symbol holds that pose until the next one. */
  if (hold_end > end)
    {
      GdkRGBA hold = color;
      double hx = odori_timeline_x_for_frame (self, end);

      hold.alpha = 0.4f;
      rect (snapshot, &hold, hx, y + ROW_HEIGHT / 2.0 - 2, odori_timeline_x_for_frame (self, hold_end) - hx,
            4);
      rect (snapshot, &hold, hx, y + ROW_HEIGHT / 2.0 - 6, 1, 12);
    }

  if (selected)
    lighten (&color, 0.18f);
  rect (snapshot, &color, x0, top, x1 - x0, h);
  /* A darker edge where it starts, so back-to-back blocks stay apart. */
  rect (snapshot, &shade, x0, top, 1.5, h);

  snapshot_repeats (self, snapshot, s, info, top, h, vis_end);
  /* Blended in: the outgoing symbol fades across the first frames (the symbol's own
   * blend, else the score's). */
  if (prev != NULL && blend > 0)
    {
      GdkRGBA from = *sym_color (self, prev);
      GdkRGBA to = from;
      double bx = odori_timeline_x_for_frame (self, MIN (s->start + blend, vis_end));
      GskColorStop stops[2];

      from.alpha = 0.95f;
      to.alpha = 0;
      stops[0] = (GskColorStop) { 0, from };
      stops[1] = (GskColorStop) { 1, to };
      if (bx - x0 >= 1)
        gtk_snapshot_append_linear_gradient (snapshot,
                                             &GRAPHENE_RECT_INIT ((float) x0, (float) top, (float) (bx - x0), (float) h),
                                             &GRAPHENE_POINT_INIT ((float) x0, 0),
                                             &GRAPHENE_POINT_INIT ((float) bx, 0),
                                             stops, 2);
    }
  if ((prev != NULL || s->mods.has_blend) && x1 - x0 >= 3 * EDGE_PX)
    snapshot_blend_ramp (self, snapshot, s, blend, top, h, vis_end, selected);
  /* Cut short by the next symbol: a notch at the cut. */
  if (vis_end < end)
    rect (snapshot, &shade, x1 - 3, top, 3, h);

  if (selected)
    outline (snapshot, &white, x0, top, x1 - x0, h, 2);
  if (paint->focused && (int) track == self->focus_part && s->start == self->focus_start)
    outline (snapshot, &paint->fg, x0 - 2, top - 2, x1 - x0 + 4, h + 4, 1);

  /* The label: code and name, or the code, when it fits; a mirrored symbol's glyph
   * before it. */
  if (x1 - x0 >= 18)
    {
      double room = x1 - x0 - 10;
      double lx = MAX (x0, HEADER_WIDTH - 2.0) + 5;

      sym_info_layouts (self, s->symbol, info);
      /* The glyph only with the code beside it: the code says more. */
      if (s->mods.mirror)
        {
          double w = snapshot_mirror_glyph (self, snapshot, lx, y + ROW_HEIGHT / 2.0,
                                            x1 - 3 - lx - info->code_w);

          lx += w;
          room -= w;
        }
      if (info->full_w <= room && lx + info->full_w <= x1 - 4)
        layout_at (snapshot, info->full_layout, lx, y + ROW_HEIGHT / 2.0, &white);
      else if (x0 + 5 + info->code_w <= x1 - 3 || room >= 14)
        {
          gtk_snapshot_push_clip (snapshot,
                                  &GRAPHENE_RECT_INIT ((float) x0, (float) top, (float) (x1 - x0 - 2), (float) h));
          layout_at (snapshot, info->code_layout, lx, y + ROW_HEIGHT / 2.0, &white);
          gtk_snapshot_pop (snapshot);
        }
    }
}

typedef struct
{
  double   x0;
  double   x1;
  GdkRGBA  color;
  gboolean open;
  gboolean selected;
} Run;

static void
run_flush (GtkSnapshot *snapshot,
           Run         *run,
           double       top,
           double       h)
{
  if (run->open)
    rect (snapshot, &run->color, run->x0, top, MAX (run->x1 - run->x0, 1), h);
  run->open = FALSE;
}

static void
snapshot_track (OdoriTimeline *self,
                GtkSnapshot   *snapshot,
                const Paint   *paint,
                guint          track,
                double         y)
{
  OdoriScorePart *part = _odori_timeline_get_part (self, track);
  Run run = { 0 };
  guint i = odori_score_part_lower_bound (part, paint->f0);
  double top = y + BLOCK_INSET, h = ROW_HEIGHT - 2 * BLOCK_INSET;
  SymInfo *prev = NULL;

  if (i > 0)
    {
      i--;
      if (i > 0)
        prev = _odori_timeline_sym_info (self, _odori_timeline_symbol_at_index (part, i - 1)->symbol);
    }
  for (; i < part->symbols->len; i++)
    {
      OdoriScoreSymbol *s = _odori_timeline_symbol_at_index (part, i);
      SymInfo *info;
      guint next, end, vis_end;
      double x0, x1;

      if (s->start > paint->f1)
        break;
      info = _odori_timeline_sym_info (self, s->symbol);
      next = i + 1 < part->symbols->len ? _odori_timeline_symbol_at_index (part, i + 1)->start : 0;
      end = _odori_timeline_symbol_end (self, s);
      vis_end = next != 0 ? MIN (end, next) : end;
      x0 = odori_timeline_x_for_frame (self, s->start);
      x1 = odori_timeline_x_for_frame (self, vis_end);

      if (x1 - x0 < TINY_BLOCK_PX)
        {
          /* Too small to draw one by one: one rectangle per run of them, each run at
           * least three pixels wide (in the colour of its first block) unless a
           * selected block starts a run of its own. */
          gboolean selected = _odori_timeline_sel_contains (self, track, s->start);
          GdkRGBA color = selected ? accent : *sym_color (self, info);

          if (run.open && x0 <= run.x1 + 1 &&
              (gdk_rgba_equal (&color, &run.color) ||
               (!selected && !run.selected && run.x1 - run.x0 < TINY_BLOCK_PX)))
            run.x1 = MAX (run.x1, x1);
          else
            {
              run_flush (snapshot, &run, top, h);
              run = (Run) { x0, x1, color, TRUE, selected };
            }
          prev = info;
          continue;
        }
      run_flush (snapshot, &run, top, h);
      snapshot_block (self, snapshot, paint, s, info, i > 0 ? prev : NULL, track, y, vis_end,
                      next != 0 ? next : paint->end + 1);
      prev = info;
    }
  run_flush (snapshot, &run, top, h);
}

static void
snapshot_seams (OdoriTimeline *self,
                GtkSnapshot   *snapshot,
                const Paint   *paint,
                guint          t0,
                guint          t1)
{
  static const GdkRGBA colors[3] = {
    { 0.18f, 0.65f, 0.35f, 1 },
    { 0.93f, 0.65f, 0.10f, 1 },
    { 0.88f, 0.11f, 0.14f, 1 },
  };

  guint last_part = G_MAXUINT;
  double last_x = 0;
  int last_rank = 0;

  /* The report is in track order, then frame order. */
  for (guint k = 0; k < _odori_timeline_n_seams (self); k++)
    {
      const OdoriSeam *seam = &g_array_index (self->seams, OdoriSeam, k);
      int rank;
      double x, y;

      if (seam->part < t0 || seam->part > t1 || seam->frame < paint->f0 || seam->frame > paint->f1)
        continue;
      /* Stale until the next report: only where a symbol still starts. */
      if (_odori_timeline_find_symbol (self, seam->part, seam->frame) == NULL)
        continue;
      rank = odori_seam_rank (seam);
      x = odori_timeline_x_for_frame (self, seam->frame);
      /* Marks closer than six pixels (a whole score in view) show the worst of them. */
      if (seam->part == last_part && x - last_x < 6 && rank <= last_rank)
        continue;
      last_part = seam->part;
      last_x = x;
      last_rank = rank;
      y = _odori_timeline_row_top (self, seam->part);
      if (rank == 2)
        {
          GdkRGBA line = colors[2];

          line.alpha = 0.7f;
          rect (snapshot, &line, x - 1, y + 1, 2, ROW_HEIGHT - 2);
        }
      rect (snapshot, &colors[rank], x - 4, y + 1, 8, 5);
    }
}

/* Why a drop or a move is refused, in a box inside the visible lanes: wrapped to fit,
 * below the track (above it for the last rows), starting near X. The drag icon
 * sits right under the pointer, so the box keeps to the next row. */
static void
snapshot_note (OdoriTimeline *self,
               GtkSnapshot   *snapshot,
               const Paint   *paint,
               const char    *text,
               double         x,
               int            track)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  double room = paint->width - HEADER_WIDTH - 16;
  double top = _odori_timeline_row_top (self, (guint) MAX (track, 0));
  GdkRGBA bg = paint->header_bg;
  int w, h;
  double bx, by;

  if (room < 40)
    return;
  pango_layout_set_width (layout, (int) (MIN (room, 460) * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_pixel_size (layout, &w, &h);
  bx = CLAMP (x, HEADER_WIDTH + 8, paint->width - 8 - w);
  by = top + ROW_HEIGHT + 2;
  if (by + h + 8 > paint->height && top - h - 10 >= TRACKS_TOP (self))
    by = top - h - 10;
  bg.alpha = 0.94f;
  rect (snapshot, &bg, bx - 4, by, w + 8, h + 8);
  outline (snapshot, &playhead_color, bx - 4, by, w + 8, h + 8, 1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) bx, (float) (by + 4)));
  gtk_snapshot_append_layout (snapshot, layout, &paint->fg);
  gtk_snapshot_restore (snapshot);
}

static void
snapshot_drop_ghost (OdoriTimeline *self,
                     GtkSnapshot   *snapshot,
                     const Paint   *paint)
{
  SymInfo *info;
  GdkRGBA color;
  double x0, x1, y;

  if (self->drop_symbol == NULL || self->drop_part < 0)
    return;
  info = _odori_timeline_sym_info (self, self->drop_symbol);
  color = self->drop_refusal != NULL ? playhead_color : *sym_color (self, info);
  color.alpha = 0.45f;
  x0 = odori_timeline_x_for_frame (self, self->drop_frame);
  x1 = odori_timeline_x_for_frame (self, self->drop_frame + info->n);
  y = _odori_timeline_row_top (self, self->drop_part);
  rect (snapshot, &color, x0, y + BLOCK_INSET, MAX (x1 - x0, 3), ROW_HEIGHT - 2 * BLOCK_INSET);
  outline (snapshot, &paint->fg, x0, y + BLOCK_INSET, MAX (x1 - x0, 3), ROW_HEIGHT - 2 * BLOCK_INSET, 1);
  if (self->drop_refusal != NULL)
    snapshot_note (self, snapshot, paint, self->drop_refusal, x0, self->drop_part);
}

static void
snapshot_lanes (OdoriTimeline *self,
                GtkSnapshot   *snapshot,
                const Paint   *paint)
{
  guint n = _odori_timeline_n_parts (self);
  int t0 = (int) floor (_odori_timeline_vvalue (self) / ROW_HEIGHT);
  int t1 = (int) floor ((_odori_timeline_vvalue (self) + paint->height - TRACKS_TOP (self)) / ROW_HEIGHT);
  double end_x = odori_timeline_x_for_frame (self, paint->end + 1);

  t0 = CLAMP (t0, 0, (int) n);
  t1 = MIN (t1, (int) n - 1);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, (float) TRACKS_TOP (self),
                                                         (float) (paint->width - HEADER_WIDTH),
                                                         (float) (paint->height - TRACKS_TOP (self))));
  for (int t = t0; t <= t1; t++)
    {
      double y = _odori_timeline_row_top (self, t);
      GdkRGBA lane = t % 2 ? paint->lane_alt : paint->lane;

      if (t == self->focus_part)
        {
          lane = accent;
          lane.alpha = paint->focused ? 0.14f : 0.08f;
        }
      rect (snapshot, &lane, HEADER_WIDTH, y, paint->width - HEADER_WIDTH, ROW_HEIGHT);
      /* A move over a track that cannot drive the symbols: not a place to drop them. */
      if (self->mode == MODE_MOVE && self->drag_refusal != NULL && t == self->drag_refused_part)
        {
          GdkRGBA refused = playhead_color;

          refused.alpha = 0.16f;
          rect (snapshot, &refused, HEADER_WIDTH, y, paint->width - HEADER_WIDTH, ROW_HEIGHT);
        }
      if (self->drop_symbol != NULL && t == self->drop_part)
        {
          GdkRGBA hover = self->drop_refusal ? playhead_color : accent;

          hover.alpha = 0.12f;
          rect (snapshot, &hover, HEADER_WIDTH, y, paint->width - HEADER_WIDTH, ROW_HEIGHT);
        }
      snapshot_track (self, snapshot, paint, t, y);
    }
  /* Where the dance ends. */
  if (end_x > HEADER_WIDTH && end_x < paint->width)
    rect (snapshot, &paint->line, end_x, TRACKS_TOP (self), 1,
          MIN (paint->height, _odori_timeline_row_top (self, n)) - TRACKS_TOP (self));
  snapshot_drop_ghost (self, snapshot, paint);
  if (self->mode == MODE_MOVE && self->drag_refusal != NULL)
    snapshot_note (self, snapshot, paint, self->drag_refusal, self->press_x,
                   odori_timeline_track_at_y (self, self->press_y));

  if (self->mode == MODE_BAND)
    {
      GdkRGBA fill = accent, edge = accent;
      double x = MIN (self->band_x0, self->band_x1) - _odori_timeline_hvalue (self);
      double y = MIN (self->band_y0, self->band_y1) - _odori_timeline_vvalue (self);
      double w = fabs (self->band_x1 - self->band_x0), h = fabs (self->band_y1 - self->band_y0);

      fill.alpha = 0.18f;
      rect (snapshot, &fill, x, y, w, h);
      outline (snapshot, &edge, x, y, w, h, 1);
    }
  gtk_snapshot_pop (snapshot);
}

static char *
ruler_label (OdoriTimeline *self,
             guint          frame,
             guint          step,
             const Paint   *paint)
{
  double seconds = (frame - 1) * paint->frame_time;
  g_autofree char *time = NULL;

  if (step < paint->fps && self->units != ODORI_TIME_UNITS_FRAMES)
    time = g_strdup_printf (_("%.2f s"), seconds);
  else if (seconds >= 60)
    time = g_strdup_printf ("%d:%02d", (int) (seconds + 1e-6) / 60, (int) (seconds + 1e-6) % 60);
  else
    time = g_strdup_printf (_("%.0f s"), seconds);

  switch (self->units)
    {
    case ODORI_TIME_UNITS_FRAMES:
      return g_strdup_printf ("%u", frame);
    case ODORI_TIME_UNITS_SECONDS:
      return g_steal_pointer (&time);
    case ODORI_TIME_UNITS_BOTH:
    default:
      /* Translators: ruler label, "time · frame number" */
      return g_strdup_printf (_("%s · %u"), time, frame);
    }
}

/* Frames between labelled ticks. Counting in seconds: whole seconds (1, 2, 5, 10 …), or
 * round numbers of frames inside a second when zoomed in. Counting in frames: 1, 2, 5,
 * 10, 20 … frames. */
static guint
ruler_step (OdoriTimeline *self,
            const Paint   *paint,
            double         min_gap)
{
  static const guint frame_steps[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000,
                                       20000, 50000, 100000, 200000, 500000 };
  static const guint second_steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200 };

  if (self->units != ODORI_TIME_UNITS_FRAMES)
    {
      for (guint i = 0; i < G_N_ELEMENTS (frame_steps) && frame_steps[i] < paint->fps; i++)
        if (frame_steps[i] * self->ppf >= min_gap)
          return frame_steps[i];
      for (guint i = 0; i < G_N_ELEMENTS (second_steps); i++)
        if (second_steps[i] * paint->fps * self->ppf >= min_gap)
          return second_steps[i] * paint->fps;
      return second_steps[G_N_ELEMENTS (second_steps) - 1] * paint->fps;
    }
  for (guint i = 0; i < G_N_ELEMENTS (frame_steps); i++)
    if (frame_steps[i] * self->ppf >= min_gap)
      return frame_steps[i];
  return frame_steps[G_N_ELEMENTS (frame_steps) - 1];
}

/* Minor ticks: fifths or halves of a step, when six pixels apart at least. */
static guint
ruler_minor_step (OdoriTimeline *self,
                  guint          step)
{
  if (step % 5 == 0 && step / 5 * self->ppf >= 6)
    return step / 5;
  if (step % 2 == 0 && step / 2 * self->ppf >= 6)
    return step / 2;
  return step;
}

/* Frames between the ruler's ticks (minor ones included) at the current zoom: what a
 * click in the ruler snaps to. */
guint
_odori_timeline_ruler_tick (OdoriTimeline *self)
{
  Paint paint = { .fps = _odori_timeline_fps (self) };

  return ruler_minor_step (self, ruler_step (self, &paint, self->units == ODORI_TIME_UNITS_BOTH ? 110 : 70));
}

/* The ruler's row of beats, under its times: bar lines, beat ticks, counts 1–8 at each
 * beat when there is room, else bar numbers at every bar or every 2nd, 4th… (never
 * two labels closer than a few pixels), and the downbeat handle. Only the beats in view
 * are visited, and at most one per few pixels. */
#define BEAT_ROW_TOP    (RULER_HEIGHT / 2)
#define COUNT_GAP_PX    16.0   /* a count label per beat from this many pixels a beat */
#define BAR_GAP_PX      36.0   /* bar numbers at least this far apart */
#define TICK_GAP_PX     5.0    /* unlabelled ticks at least this far apart */

static gboolean
beat_label (OdoriTimeline *self,
            GtkSnapshot   *snapshot,
            const char    *markup,
            double         x,
            double        *label_end,
            const GdkRGBA *color)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  int w;

  pango_layout_set_markup (layout, markup, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  if (x + 2 < *label_end + 3 || x + 2 < HEADER_WIDTH)
    return FALSE;
  layout_at (snapshot, layout, x + 2, BEAT_ROW_TOP + (RULER_HEIGHT - BEAT_ROW_TOP) / 2.0, color);
  *label_end = x + 2 + w;
  return TRUE;
}

static void
snapshot_beats (OdoriTimeline *self,
                GtkSnapshot   *snapshot,
                const Paint   *paint,
                OdoriBeatGrid *grid)
{
  double beat_px = odori_beat_grid_get_frames_per_beat (grid) * self->ppf;
  gint64 meter = odori_beat_grid_get_meter (grid);
  gint64 f0 = (gint64) floor (_odori_timeline_frame_at_x_exact (self, HEADER_WIDTH)) - 1;
  gint64 f1 = (gint64) ceil (_odori_timeline_frame_at_x_exact (self, paint->width)) + 1;
  GdkRGBA bar_color = paint->fg, tick = paint->fg, handle = accent;
  double label_end = 0, x;
  gint64 first, last, stride = 1;

  bar_color.alpha = 0.7f;
  tick.alpha = 0.35f;
  if (odori_beat_grid_beats_in_frames (grid, f0, f1, &first, &last))
    {
      if (beat_px >= TICK_GAP_PX)
        {
          /* Every beat: a tick, a bar line at each bar's first, and counts when there
           * is room (bar numbers at bar lines otherwise). */
          gboolean counts = beat_px >= COUNT_GAP_PX;
          gint64 bar_stride = 1;

          while (!counts && bar_stride * meter * beat_px < BAR_GAP_PX && bar_stride < G_MAXINT32)
            bar_stride *= 2;
          for (gint64 k = first; k <= last; k++)
            {
              gboolean bar = odori_beat_grid_beat_in_bar (grid, k) == 1;
              gint64 bar_no = odori_beat_grid_beat_bar (grid, k);

              x = odori_timeline_x_for_frame (self, (double) odori_beat_grid_beat_frame (grid, k));
              if (bar)
                rect (snapshot, &bar_color, x, BEAT_ROW_TOP, 1.5, RULER_HEIGHT - BEAT_ROW_TOP);
              else
                rect (snapshot, &tick, x, RULER_HEIGHT - 7, 1, 7);
              if (counts)
                {
                  g_autofree char *markup = g_strdup_printf (bar ? "<small><b>%u</b></small>" : "<small>%u</small>",
                                                             odori_beat_grid_beat_count (grid, k));

                  beat_label (self, snapshot, markup, x, &label_end, bar ? &paint->fg : &paint->dim);
                }
              else if (bar && (bar_no - 1) % bar_stride == 0)
                {
                  g_autofree char *markup = g_strdup_printf ("<small><b>%" G_GINT64_FORMAT "</b></small>", bar_no);

                  beat_label (self, snapshot, markup, x, &label_end, &paint->fg);
                }
            }
        }
      else
        {
          /* Beats too close to draw: every n-th bar (n = 1, 2, 4…), its line and number,
           * visiting those beats alone. */
          gint64 k;

          while (stride * meter * beat_px < BAR_GAP_PX && stride < G_MAXINT32)
            stride *= 2;
          stride *= meter;
          /* The first multiple of STRIDE at or after FIRST (beat 0 is bar 1's first). */
          k = first >= 0 ? (first + stride - 1) / stride * stride : -((-first) / stride * stride);
          for (; k <= last; k += stride)
            {
              g_autofree char *markup = NULL;

              x = odori_timeline_x_for_frame (self, (double) odori_beat_grid_beat_frame (grid, k));
              rect (snapshot, &bar_color, x, BEAT_ROW_TOP, 1.5, RULER_HEIGHT - BEAT_ROW_TOP);
              markup = g_strdup_printf ("<small><b>%" G_GINT64_FORMAT "</b></small>",
                                        odori_beat_grid_beat_bar (grid, k));
              beat_label (self, snapshot, markup, x, &label_end, &paint->fg);
            }
        }
    }
  /* The downbeat handle: beat 0 of a tempo, dragged along the ruler. */
  if (_odori_timeline_downbeat_x (self, &x) && x >= HEADER_WIDTH - DOWNBEAT_PX && x <= paint->width + DOWNBEAT_PX)
    {
      if (self->mode != MODE_DOWNBEAT)
        handle.alpha = 0.85f;
      rect (snapshot, &handle, x - 1, BEAT_ROW_TOP, 3, RULER_HEIGHT - BEAT_ROW_TOP);
      rect (snapshot, &handle, x - 4, BEAT_ROW_TOP, 9, 4);
    }
  /* The beat mark being dragged, as the handle. */
  if (self->mode == MODE_BEAT && odori_beat_grid_has_beat (grid, self->beat_drag))
    {
      x = odori_timeline_x_for_frame (self, (double) odori_beat_grid_beat_frame (grid, self->beat_drag));
      rect (snapshot, &handle, x - 1, BEAT_ROW_TOP, 3, RULER_HEIGHT - BEAT_ROW_TOP);
      rect (snapshot, &handle, x - 4, BEAT_ROW_TOP, 9, 4);
    }
}

static void
snapshot_ruler (OdoriTimeline *self,
                GtkSnapshot   *snapshot,
                const Paint   *paint)
{
  double min_gap = self->units == ODORI_TIME_UNITS_BOTH ? 110 : 70;
  guint step = ruler_step (self, paint, min_gap);
  guint minor = ruler_minor_step (self, step);
  GdkRGBA tick = paint->fg;
  double label_end = 0;
  guint first;
  OdoriBeatGrid *grid = _odori_timeline_beat_grid (self);
  double progress;

  rect (snapshot, &paint->header_bg, 0, 0, paint->width, RULER_HEIGHT);
  rect (snapshot, &paint->line, 0, RULER_HEIGHT - 1, paint->width, 1);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, 0,
                                                         (float) (paint->width - HEADER_WIDTH), RULER_HEIGHT));
  tick.alpha = 0.45f;
  first = paint->f0 > minor ? (paint->f0 - 1) / minor * minor + 1 : 1;
  for (guint f = first; f <= paint->f1 + step; f += minor)
    {
      double x = odori_timeline_x_for_frame (self, f);
      gboolean major = (f - 1) % step == 0;

      /* With beats under them, the times keep to the ruler's upper half, where the
       * labels leave no room for minor ticks. */
      if (grid != NULL)
        {
          if (major)
            rect (snapshot, &tick, x, 0, 1, BEAT_ROW_TOP);
        }
      else
        rect (snapshot, &tick, x, major ? 14 : 21, 1, RULER_HEIGHT - (major ? 14 : 21));
      if (major)
        {
          g_autofree char *label = ruler_label (self, f, step, paint);
          g_autofree char *markup = g_markup_printf_escaped ("<small>%s</small>", label);
          g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
          int w;

          pango_layout_set_markup (layout, markup, -1);
          pango_layout_get_pixel_size (layout, &w, NULL);
          /* The last label in view goes left of its tick rather than being cut (or
           * not at all when that would run into the label before it). */
          if (x + 3 + w > paint->width - 2)
            {
              if (x - 3 - w >= MAX (HEADER_WIDTH, label_end + 12))
                layout_at (snapshot, layout, x - 3 - w, 8, &paint->dim);
            }
          else
            {
              text_at (self, snapshot, markup, x + 3, 8, min_gap - 8, &paint->dim);
              label_end = x + 3 + MIN (w, min_gap - 8);
            }
        }
      if (f > G_MAXUINT - minor)
        break;
    }
  if (grid != NULL)
    {
      GdkRGBA sep = paint->line;

      rect (snapshot, &sep, HEADER_WIDTH, BEAT_ROW_TOP, paint->width - HEADER_WIDTH, 1);
      snapshot_beats (self, snapshot, paint, grid);
    }
  if (odori_timeline_get_detecting (self, &progress))
    {
      g_autofree char *text = g_strdup_printf (_("Detecting tempo… %d %%"), (int) (progress * 100));
      g_autofree char *markup = g_markup_printf_escaped ("<small><b>%s</b></small>", text);
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
      int w;

      pango_layout_set_markup (layout, markup, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      rect (snapshot, &paint->header_bg, paint->width - w - 16, 0, w + 16, BEAT_ROW_TOP);
      layout_at (snapshot, layout, paint->width - w - 8, BEAT_ROW_TOP / 2.0, &accent);
    }
  gtk_snapshot_pop (snapshot);
}

static void
snapshot_header (OdoriTimeline *self,
                 GtkSnapshot   *snapshot,
                 const Paint   *paint)
{
  OdoriIndex *index = odori_document_get_index (self->document);
  guint n = _odori_timeline_n_parts (self);

  rect (snapshot, &paint->header_bg, 0, TRACKS_TOP (self), HEADER_WIDTH, paint->height - TRACKS_TOP (self));
  rect (snapshot, &paint->line, HEADER_WIDTH - 1, 0, 1, paint->height);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, (float) TRACKS_TOP (self), HEADER_WIDTH - 1,
                                                         (float) (paint->height - TRACKS_TOP (self))));
  for (guint t = 0; t < n; t++)
    {
      OdoriScorePart *part = _odori_timeline_get_part (self, t);
      OdoriIndexPart *ipart = index ? odori_index_find_part (index, part->code) : NULL;
      double y = _odori_timeline_row_top (self, t);
      g_autofree char *markup = NULL;

      if (y + ROW_HEIGHT < TRACKS_TOP (self))
        continue;
      if (y > paint->height)
        break;
      if ((int) t == self->focus_part)
        {
          GdkRGBA focus = accent;

          focus.alpha = paint->focused ? 0.22f : 0.12f;
          rect (snapshot, &focus, 0, y, HEADER_WIDTH - 1, ROW_HEIGHT);
        }
      rect (snapshot, &paint->line, 0, y + ROW_HEIGHT - 1, HEADER_WIDTH - 1, 1);
      markup = g_markup_printf_escaped ("<b>%s</b>  <span alpha=\"65%%\">%s</span>", part->code,
                                        ipart && ipart->name ? ipart->name : "");
      text_at (self, snapshot, markup, 10, y + ROW_HEIGHT / 2.0, HEADER_WIDTH - 16, &paint->fg);
    }
  gtk_snapshot_pop (snapshot);
}

static void
snapshot_playhead (OdoriTimeline *self,
                   GtkSnapshot   *snapshot,
                   const Paint   *paint)
{
  double x, bottom;

  if (self->session == NULL || odori_session_get_preview (self->session) != NULL)
    return;
  x = odori_timeline_x_for_frame (self, odori_session_get_frame (self->session) + 0.5);
  if (x < HEADER_WIDTH || x > paint->width)
    return;
  bottom = MIN (paint->height, _odori_timeline_row_top (self, _odori_timeline_n_parts (self)) + 4);
  rect (snapshot, &playhead_color, x - 1, 0, 2, bottom);
  rect (snapshot, &playhead_color, x - 5, 0, 10, 9);
}

void
_odori_timeline_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);
  Paint paint;

  if (_odori_timeline_get_score (self) == NULL)
    return;
  paint_init (self, &paint);
  snapshot_lanes (self, snapshot, &paint);
  snapshot_ruler (self, snapshot, &paint);
  snapshot_header (self, snapshot, &paint);
  /* The lane under the ruler (the music), then the playhead through all of them. */
  if (self->lane != NULL)
    gtk_widget_snapshot_child (widget, self->lane, snapshot);
  snapshot_playhead (self, snapshot, &paint);
  /* Seam marks above the playhead, which would hide them. */
  {
    guint n = _odori_timeline_n_parts (self);
    int t0 = (int) floor (_odori_timeline_vvalue (self) / ROW_HEIGHT);
    int t1 = (int) floor ((_odori_timeline_vvalue (self) + paint.height - TRACKS_TOP (self)) / ROW_HEIGHT);

    t0 = CLAMP (t0, 0, (int) n);
    t1 = MIN (t1, (int) n - 1);
    gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, (float) TRACKS_TOP (self),
                                                           (float) (paint.width - HEADER_WIDTH),
                                                           (float) (paint.height - TRACKS_TOP (self))));
    if (t0 <= t1)
      snapshot_seams (self, snapshot, &paint, (guint) t0, (guint) t1);
    gtk_snapshot_pop (snapshot);
  }
}

/* ---------------------------------------------------------------------------------- */
/* Tooltips                                                                           */

static const OdoriSeam *
seam_at (OdoriTimeline *self,
         guint          track,
         double         x,
         double         y)
{
  double top = _odori_timeline_row_top (self, track);

  if (y > top + 10)
    return NULL;
  for (guint k = 0; k < _odori_timeline_n_seams (self); k++)
    {
      const OdoriSeam *seam = &g_array_index (self->seams, OdoriSeam, k);

      if (seam->part == track && fabs (odori_timeline_x_for_frame (self, seam->frame) - x) <= 5 &&
          _odori_timeline_find_symbol (self, track, seam->frame) != NULL)
        return seam;
    }
  return NULL;
}

static char *
seam_markup (OdoriTimeline   *self,
             const OdoriSeam *seam)
{
  static const char *verdicts[] = { N_("smooth"), N_("noticeable"), N_("rough") };
  OdoriScorePart *part = _odori_timeline_get_part (self, seam->part);
  g_autofree char *from = g_markup_escape_text (seam->from ? seam->from : "", -1);
  g_autofree char *to = g_markup_escape_text (seam->to ? seam->to : "", -1);

  /* Translators: a seam tooltip: track, frame, symbols, then the figures */
  return g_strdup_printf (_("<b>Seam on %s at frame %u</b>: %s → %s\n"
                            "Jump %.1f° against %.1f° inside the clips (%.1f×): %s"),
                          part->code, seam->frame, from, to, seam->jump_deg, seam->clip_max_deg,
                          seam->jump_deg / MAX (seam->clip_max_deg, 0.01), _(verdicts[odori_seam_rank (seam)]));
}

static char *
symbol_markup (OdoriTimeline    *self,
               guint             track,
               OdoriScoreSymbol *s)
{
  SymInfo *info = _odori_timeline_sym_info (self, s->symbol);
  OdoriScorePart *part = _odori_timeline_get_part (self, track);
  GString *text = g_string_new (NULL);
  g_autofree char *code = g_markup_escape_text (s->symbol, -1);
  g_autofree char *mods = odori_symbol_mods_to_string (&s->mods);
  guint length = _odori_timeline_symbol_length (self, s);
  guint end = s->start + length - 1;

  g_string_append_printf (text, "<b>%s</b>", code);
  if (info->motion != NULL)
    {
      OdoriIndexMotion *m = info->motion;
      g_autofree char *name = g_markup_escape_text (m->name ? m->name : "", -1);
      g_autofree char *show = g_markup_escape_text (m->show->name ? m->show->name : m->show->code, -1);
      g_autofree char *klass = g_markup_escape_text (m->show->klass &&
                                                     m->show->klass->name ? m->show->klass->name : "", -1);

      g_string_append_printf (text, " %s\n", name);
      /* Translators: tooltip line: show and class of a motion */
      g_string_append_printf (text, _("Show %s (%s) · %s\n"), show, m->show->code, klass);
    }
  else
    g_string_append_printf (text, "\n%s\n", _("Not in the library: this symbol does not compose"));
  g_string_append_printf (text, _("Track %s · frames %u–%u (%u frames, %.2f s)"),
                          part->code, s->start, end, length, length * _odori_timeline_frame_time (self));
  if (mods[0] != '\0')
    {
      g_autofree char *escaped = g_markup_escape_text (mods + 1, -1);

      /* Translators: tooltip line: the symbol's modifiers as the score writes them */
      g_string_append_printf (text, _("\nModifiers: %s"), escaped);
    }
  if (info->motion != NULL && info->motion->exp != NULL)
    {
      g_autofree char *exp = g_markup_escape_text (info->motion->exp, -1);

      g_string_append_printf (text, "\n<i>%s</i>", exp);
    }
  return g_string_free (text, FALSE);
}

gboolean
_odori_timeline_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard,
                               GtkTooltip *tooltip)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);
  g_autofree char *markup = NULL;
  OdoriScoreSymbol *s;
  const OdoriSeam *seam;
  int track;

  if (_odori_timeline_get_score (self) == NULL || self->mode != MODE_NONE || self->drop_symbol != NULL ||
      self->tooltip_quiet)
    return FALSE;
  if (keyboard)
    {
      s = self->focus_part >= 0 ? _odori_timeline_find_symbol (self, self->focus_part, self->focus_start) : NULL;
      if (s == NULL)
        return FALSE;
      markup = symbol_markup (self, self->focus_part, s);
      gtk_tooltip_set_markup (tooltip, markup);
      return TRUE;
    }
  if (y < RULER_HEIGHT)
    {
      gtk_tooltip_set_text (tooltip, _("Click or drag to move the playhead"));
      return TRUE;
    }
  track = odori_timeline_track_at_y (self, y);
  if (track < 0)
    return FALSE;
  if (x < HEADER_WIDTH)
    {
      OdoriScorePart *part = _odori_timeline_get_part (self, track);
      OdoriIndex *index = odori_document_get_index (self->document);
      OdoriIndexPart *ipart = index ? odori_index_find_part (index, part->code) : NULL;
      g_autofree char *sensors = part->sensors ? g_strjoinv (", ", part->sensors) : g_strdup ("");
      g_autofree char *name = g_markup_escape_text (ipart && ipart->name ? ipart->name : part->code, -1);
      g_autofree char *escaped = g_markup_escape_text (sensors, -1);

      /* Translators: track header tooltip: name, code, sensors */
      markup = g_strdup_printf (_("<b>%s</b> (%s)\nSensors: %s"), name, part->code, escaped);
    }
  else if ((seam = seam_at (self, track, x, y)) != NULL)
    markup = seam_markup (self, seam);
  else if ((s = _odori_timeline_symbol_under (self, track, x)) != NULL)
    markup = symbol_markup (self, track, s);
  else
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* bench-timeline.c: the timeline's drawing and the edit loop, next to an empty timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On the built-in sample library (30 fps, 18 segments), in a 1280×300 window:
 *   - snapshot of the timeline (the render-node tree its snapshot() builds) with a
 *     10,000-symbol score, fitted (every symbol in view) and at a working zoom
 *     (2 px per frame), next to the same timeline with empty tracks;
 *   - after a move in a 10-minute score (a limb track, then the root track): the edit
 *     with its incremental recomposition, the timeline's snapshot, and the two together;
 *   - for reference, turning a snapshot into pixels (GSK, here GL on llvmpipe).
 * Prints medians. Needs a display (build-aux/bench-timeline runs it under Xvfb).
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "odori-document.h"
#include "odori-sample.h"
#include "odori-score-edit.h"
#include "odori-timeline-private.h"
#include "odori-undo.h"

#define RUNS 41

static const char *parts[][2] = {
  { "BD", "Hips,Chest,Neck" },
  { "HD", "Neck,Head" },
  { "LA", "Chest,LeftCollar,LeftUpArm,LeftLowArm,LeftHand" },
  { "RA", "Chest,RightCollar,RightUpArm,RightLowArm,RightHand" },
  { "LL", "Hips,LeftUpLeg,LeftLowLeg,LeftFoot" },
  { "RL", "Hips,RightUpLeg,RightLowLeg,RightFoot" },
};

/* The sample's motions and their lengths in frames. */
static const struct { const char *symbol; guint n; } motions[] = {
  { "C1", 81 }, { "C2", 111 }, { "W1", 141 }, { "W2", 119 }, { "TE.K1", 75 },
  { "S1", 151 }, { "S2", 111 }, { "S3", 85 }, { "T1", 121 }, { "T2", 121 },
  { "MW.K1", 75 }, { "B1", 125 }, { "B2", 89 }, { "R1", 101 },
};

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return v[n / 2];
}

static double
now (void)
{
  return g_get_monotonic_time () / 1e3;
}

/* A score over the sample library: on each track, symbols every STEP frames (0: back
 * to back) until N_SYMBOLS in all, or until FRAMES frames. */
static char *
write_score (const char *dir,
             const char *name,
             guint       n_symbols,
             guint       step,
             guint       frames)
{
  GString *text = g_string_new ("# Title: bench\n# Author: bench\n# Date: 2026/01/01\n"
                                "# Index: motion.dat\n# Blend: 6\n");
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  guint per_track = n_symbols / G_N_ELEMENTS (parts);

  for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
    {
      guint start = 1, k = p * 5;
      guint n = per_track + (p < n_symbols % G_N_ELEMENTS (parts));

      g_string_append_printf (text, "%s: %s\n", parts[p][0], parts[p][1]);
      for (guint i = 0; n_symbols > 0 ? i < n : start <= frames; i++)
        {
          guint m = (k + i * 3) % G_N_ELEMENTS (motions);

          g_string_append_printf (text, "%u: %s\n", start, motions[m].symbol);
          start += step > 0 ? step : motions[m].n;
        }
    }
  if (!g_file_set_contents (path, text->str, text->len, &error))
    g_error ("%s", error->message);
  g_string_free (text, TRUE);
  return g_steal_pointer (&path);
}

typedef struct
{
  GtkWidget     *window;
  OdoriTimeline *timeline;
  OdoriDocument *document;
  OdoriSession  *session;
  OdoriUndo     *undo;
} Setup;

static void
pump (void)
{
  for (int i = 0; i < 50 && g_main_context_iteration (NULL, FALSE); i++)
    ;
}

static gboolean
flag_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop for MS milliseconds: the window is mapped and drawn. */
static void
settle (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, flag_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
setup_open (Setup      *s,
            const char *score)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *scroller;

  s->document = odori_document_new ();
  if (!odori_document_open_score (s->document, score, NULL, &error))
    g_error ("%s", error->message);
  s->undo = odori_undo_new (s->document);
  s->session = odori_session_new (s->document);
  s->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (s->window), 1280, 300);
  scroller = gtk_scrolled_window_new ();
  s->timeline = ODORI_TIMELINE (odori_timeline_new ());
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (s->timeline));
  gtk_window_set_child (GTK_WINDOW (s->window), scroller);
  odori_timeline_set_undo (s->timeline, s->undo);
  odori_timeline_set_session (s->timeline, s->session);
  gtk_window_present (GTK_WINDOW (s->window));
  while (gtk_widget_get_width (GTK_WIDGET (s->timeline)) < 1000 ||
         !gtk_widget_get_mapped (GTK_WIDGET (s->timeline)))
    g_main_context_iteration (NULL, TRUE);
  settle (300);
  _odori_timeline_refresh_seams (s->timeline);
}

static void
setup_close (Setup *s)
{
  gtk_window_destroy (GTK_WINDOW (s->window));
  g_clear_object (&s->undo);
  g_clear_object (&s->session);
  g_clear_object (&s->document);
  pump ();
}

/* Milliseconds for one snapshot of the timeline (its snapshot() as a redraw calls it);
 * *NODE (nullable) keeps the node. */
static double
time_snapshot (Setup          *s,
               GskRenderNode **node)
{
  GtkWidget *widget = GTK_WIDGET (s->timeline);
  GtkSnapshot *snapshot;
  GskRenderNode *result;
  double t0;

  t0 = now ();
  snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  result = gtk_snapshot_free_to_node (snapshot);
  t0 = now () - t0;
  if (result == NULL)
    g_error ("the timeline drew nothing");
  if (node != NULL)
    {
      g_clear_pointer (node, gsk_render_node_unref);
      *node = result;
    }
  else
    gsk_render_node_unref (result);
  return t0;
}

/* The median of RUNS snapshots; *BEST the fastest (the machine may be busy). */
static double
median_snapshot (Setup  *s,
                 double *best)
{
  double v[RUNS];

  time_snapshot (s, NULL);
  for (guint i = 0; i < RUNS; i++)
    v[i] = time_snapshot (s, NULL);
  qsort (v, RUNS, sizeof (double), cmp_double);
  *best = v[0];
  return median (v, RUNS);
}

static double
median_render (Setup *s)
{
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (s->window));
  GtkWidget *widget = GTK_WIDGET (s->timeline);
  GskRenderNode *node = NULL;
  double v[15];

  time_snapshot (s, &node);
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    {
      double t0 = now ();
      graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
      GdkTexture *texture = gsk_renderer_render_texture (renderer, node, &bounds);

      v[i] = now () - t0;
      g_object_unref (texture);
    }
  gsk_render_node_unref (node);
  return median (v, G_N_ELEMENTS (v));
}

static guint
n_symbols (OdoriDocument *doc)
{
  OdoriScore *score = odori_document_get_score (doc);
  guint n = 0;

  for (guint p = 0; p < score->parts->len; p++)
    n += ((OdoriScorePart *) g_ptr_array_index (score->parts, p))->symbols->len;
  return n;
}

/* Moves the middle symbol of TRACK DELTA frames later and back, RUNS times: medians of
 * the edit (apply + incremental recompose), the snapshot, and both (and the fastest of
 * both). */
static void
bench_move (Setup      *s,
            guint       track,
            int         delta,
            const char *label)
{
  OdoriScorePart *part = g_ptr_array_index (odori_document_get_score (s->document)->parts, track);
  guint start = g_array_index (part->symbols, OdoriScoreSymbol, part->symbols->len / 2).start;
  double edit[RUNS], draw[RUNS], both[RUNS];
  double m_edit, m_draw, m_both;
  g_autoptr(GError) error = NULL;

  odori_timeline_set_pixels_per_frame (s->timeline, 2.0, 0);
  odori_timeline_scroll_to (s->timeline, track, start);
  odori_timeline_select (s->timeline, track, start, ODORI_TIMELINE_SELECT_REPLACE);
  for (guint i = 0; i < RUNS; i++)
    {
      double t0 = now (), t1, t2;

      /* One step of a drag: the edit, the recomposition, the redraw. */
      if (!odori_timeline_move_selection (s->timeline, (i % 2) ? -delta : delta, &error))
        g_error ("%s", error->message);
      t1 = now ();
      time_snapshot (s, NULL);
      t2 = now ();
      edit[i] = t1 - t0;
      draw[i] = t2 - t1;
      both[i] = t2 - t0;
      pump ();
    }
  m_edit = median (edit, RUNS);
  m_draw = median (draw, RUNS);
  m_both = median (both, RUNS);   /* sorts: both[0] is the fastest */
  printf ("move, %-22s edit + recompose %6.2f ms   snapshot %6.2f ms   together %6.2f ms (best %.2f)\n",
          label, m_edit, m_draw, m_both, both[0]);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *big = NULL;
  g_autofree char *ten = NULL;
  g_autofree char *empty = NULL;
  double t_empty, t_big_fit, t_big_work, t_ten, r_empty, r_big;
  double b_empty, b_big_fit, b_big_work, b_ten;
  Setup s = { 0 };

  setlocale (LC_ALL, "");
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  if (!gtk_init_check ())
    {
      fprintf (stderr, "bench-timeline: no display (build-aux/bench-timeline runs it under Xvfb)\n");
      return 1;
    }
  dir = g_dir_make_tmp ("odori-bench-timeline-XXXXXX", &error);
  if (dir == NULL || !odori_sample_write (dir, &error))
    g_error ("%s", error->message);
  /* 10,000 symbols, one every 18 frames on each of the six tracks (each cut by the next). */
  big = write_score (dir, "big.dds", 10000, 18, 0);
  /* 10 minutes at 30 fps, symbols back to back. */
  ten = write_score (dir, "ten.dds", 0, 0, 600 * 30);
  empty = write_score (dir, "empty.dds", 0, 0, 0);

  setup_open (&s, empty);
  odori_timeline_zoom_fit (s.timeline);
  t_empty = median_snapshot (&s, &b_empty);
  r_empty = median_render (&s);
  setup_close (&s);

  setup_open (&s, big);
  printf ("10,000-symbol score: %u symbols, %u frames; timeline %d×%d px\n", n_symbols (s.document),
          odori_session_get_n_frames (s.session), gtk_widget_get_width (GTK_WIDGET (s.timeline)),
          gtk_widget_get_height (GTK_WIDGET (s.timeline)));
  odori_timeline_zoom_fit (s.timeline);
  t_big_fit = median_snapshot (&s, &b_big_fit);
  r_big = median_render (&s);
  odori_timeline_set_pixels_per_frame (s.timeline, 2.0, 0);
  odori_timeline_scroll_to (s.timeline, 0, odori_session_get_n_frames (s.session) / 2);
  t_big_work = median_snapshot (&s, &b_big_work);
  setup_close (&s);

  printf ("snapshot, empty tracks (baseline):      %6.2f ms  (best %.2f)\n", t_empty, b_empty);
  printf ("snapshot, 10,000 symbols, whole score:  %6.2f ms  (best %.2f; %.1fx the baseline)\n", t_big_fit,
          b_big_fit, t_big_fit / t_empty);
  printf ("snapshot, 10,000 symbols, 2 px/frame:   %6.2f ms  (best %.2f; %.1fx the baseline)\n", t_big_work,
          b_big_work, t_big_work / t_empty);

  setup_open (&s, ten);
  odori_timeline_set_pixels_per_frame (s.timeline, 2.0, 0);
  t_ten = median_snapshot (&s, &b_ten);
  printf ("10-minute score: %u symbols, %u frames (%.0f s)\n", n_symbols (s.document),
          odori_session_get_n_frames (s.session),
          odori_session_get_n_frames (s.session) * odori_session_get_frame_time (s.session));
  printf ("snapshot, 10-minute score, 2 px/frame:  %6.2f ms  (best %.2f)\n", t_ten, b_ten);
  bench_move (&s, 2, 1, "arm track, 1 frame:");
  bench_move (&s, 0, 1, "root track, 1 frame:");
  bench_move (&s, 2, 30, "arm track, 1 s:");
  bench_move (&s, 0, 30, "root track, 1 s:");
  setup_close (&s);

  printf ("for reference, snapshot to pixels (GSK %s): empty %.2f ms, 10,000 symbols %.2f ms\n",
          g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "default", r_empty, r_big);
  return 0;
}

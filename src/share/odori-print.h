/* odori-print.h: a score laid out on pages, for a PDF (odori-cli print) and for paper
 * (the window's Print…, GtkPrintOperation): the same lines on any cairo_t
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two steps. Prepare (in any thread, sync or async with progress and cancel) composes the
 * dance when no motion was given and draws a thumbnail of the pose at each symbol's start
 * with the renderer, in a headless GL context it creates and frees in that same thread.
 * Then paginate and draw pages (cairo and Pango only, any thread, e.g. GtkPrintOperation's
 * draw-page on the main thread). Units are points (1/72 inch): a cairo_t whose user unit
 * is a point (a PDF surface, or GtkPrintContext with GTK_UNIT_POINTS).
 *
 * docs/sharing.md "Printed score" describes the layout.
 */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "odori-index.h"
#include "odori-motion-cache.h"
#include "odori-score.h"

G_BEGIN_DECLS

typedef enum
{
  ODORI_PAPER_A4,
  ODORI_PAPER_LETTER,
} OdoriPaper;

/* "a4" or "letter" (any case). */
gboolean odori_paper_from_string (const char *text,
                                  OdoriPaper *paper);
/* The paper's size in points, its long side horizontal when LANDSCAPE. */
void odori_paper_get_size (OdoriPaper paper,
                           gboolean   landscape,
                           double    *width,
                           double    *height);

#define ODORI_TYPE_PRINT (odori_print_get_type ())

G_DECLARE_FINAL_TYPE (OdoriPrint, odori_print, ODORI, PRINT, GObject)

/* SCORE is copied now (the window may edit it meanwhile), and INDEX's entries for the
 * score's symbols (names, descriptions, shows, frame ranges) are read now. MOTION is the
 * composed dance (a reference is taken: nobody may change it, pass a copy of one that
 * lives on), or NULL: prepare then composes the score against INDEX (which nobody may
 * change until prepare returns). */
OdoriPrint *odori_print_new (OdoriScore  *score,
                             OdoriIndex  *index,
                             OdoriMotion *motion);
/* Where prepare loads show files (to count each clip's frames at the score's rate):
 * shared with the window's library. Default: a cache of its own. */
void odori_print_set_motion_cache (OdoriPrint       *self,
                                   OdoriMotionCache *cache);
/* Whether prepare draws the pose thumbnails (default TRUE). Without them, no GL is used. */
void odori_print_set_thumbnails (OdoriPrint *self,
                                 gboolean    thumbnails);
/* The title printed: the score's "# Title:", else its file name, else "Untitled". */
const char *odori_print_get_title (OdoriPrint *self);
/* 0 … 1 (prepare, then writing the pages), readable from any thread. */
double odori_print_get_fraction (OdoriPrint *self);

gboolean odori_print_prepare (OdoriPrint   *self,
                              GCancellable *cancellable,
                              GError      **error);
void     odori_print_prepare_async (OdoriPrint         *self,
                                    GCancellable       *cancellable,
                                    GAsyncReadyCallback callback,
                                    gpointer            user_data);
gboolean odori_print_prepare_finish (OdoriPrint   *self,
                                     GAsyncResult *result,
                                     GError      **error);

/* After prepare: lays the score out on pages of WIDTH x HEIGHT points (margins
 * included); returns the number of pages (at least 1). */
guint odori_print_paginate (OdoriPrint *self,
                            double      width,
                            double      height);
/* Draws page PAGE (from 0) of the last paginate on CR (user unit: a point, origin at the
 * paper's top left corner). */
void odori_print_draw_page (OdoriPrint *self,
                            cairo_t    *cr,
                            guint       page);
/* The output frames the staff systems of PAGE cover, FIRST to LAST (1-based); FALSE for
 * a page with the legend only. */
gboolean odori_print_get_page_frames (OdoriPrint *self,
                                      guint       page,
                                      guint      *first,
                                      guint      *last);

/* Prepares (unless done), paginates and writes every page as a PDF at PATH, atomically:
 * on error or cancellation the target is untouched. */
gboolean odori_print_write_pdf (OdoriPrint   *self,
                                const char   *path,
                                double        width,
                                double        height,
                                GCancellable *cancellable,
                                GError      **error);
void     odori_print_write_pdf_async (OdoriPrint         *self,
                                      const char         *path,
                                      double              width,
                                      double              height,
                                      GCancellable       *cancellable,
                                      GAsyncReadyCallback callback,
                                      gpointer            user_data);
gboolean odori_print_write_pdf_finish (OdoriPrint   *self,
                                       GAsyncResult *result,
                                       GError      **error);

G_END_DECLS

/* odori-info-bar.h: the bars above the window's content (errors, recovery, undo removal)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-document.h"

G_BEGIN_DECLS

/* The answers of the recovery bar ("recovery-response"). */
typedef enum
{
  ODORI_INFO_BAR_RECOVER = 1,
  ODORI_INFO_BAR_DISCARD = 2,
} OdoriInfoBarResponse;

#define ODORI_TYPE_INFO_BAR (odori_info_bar_get_type ())

G_DECLARE_FINAL_TYPE (OdoriInfoBar, odori_info_bar, ODORI, INFO_BAR, GtkWidget)

GtkWidget     *odori_info_bar_new (void);
OdoriDocument *odori_info_bar_get_document (OdoriInfoBar *self);
void           odori_info_bar_set_document (OdoriInfoBar  *self,
                                            OdoriDocument *document);
/* TITLE in bold, MESSAGE (may be NULL) below it, DIAGNOSTICS (OdoriDiagnostic, may be
 * NULL) behind a Details expander. */
void odori_info_bar_show_message (OdoriInfoBar  *self,
                                  GtkMessageType type,
                                  const char    *title,
                                  const char    *message,
                                  GPtrArray     *diagnostics);
void odori_info_bar_hide_message (OdoriInfoBar *self);
/* What the document's last open left to say: the composition's error, or its
 * warnings (details shown); hides the message when there is nothing to say. */
void odori_info_bar_report_document (OdoriInfoBar *self);
/* Asks TEXT with Recover and Discard; the answer comes as "recovery-response". */
void odori_info_bar_offer_recovery (OdoriInfoBar *self,
                                    const char   *text);
/* TEXT with an Undo button (win.undo-remove-show) and a close button ("removed-closed"). */
void odori_info_bar_show_removed (OdoriInfoBar *self,
                                  const char   *text);
void odori_info_bar_hide_removed (OdoriInfoBar *self);

G_END_DECLS

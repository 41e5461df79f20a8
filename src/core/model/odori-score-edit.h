/* odori-score-edit.h: edits of a score as plain data, applied and reverted exactly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An edit is what the timeline does to a score in one step: a set of symbols taken
 * away and a set put in (a move is both: the symbol leaves its start and arrives at
 * another), a change of "# Blend:", of the title, author or date, or of the music lines,
 * or one track added or removed. Applying removes
 * first, then adds, so moving several symbols along their tracks never collides with
 * itself. Reverting does the opposite and gives back the very symbols (with their
 * source lines), so an undo restores the score exactly. Both check everything before
 * they change anything: a failed apply leaves the score as it was.
 */
#pragma once

#include "odori-score.h"

G_BEGIN_DECLS

#define ODORI_SCORE_EDIT_ERROR (odori_score_edit_error_quark ())

typedef enum
{
  ODORI_SCORE_EDIT_ERROR_NO_SYMBOL,  /* a symbol to take away is not where the edit says */
  ODORI_SCORE_EDIT_ERROR_OCCUPIED,   /* a track already has a symbol at that start frame */
  ODORI_SCORE_EDIT_ERROR_START,      /* start frame 0 */
  ODORI_SCORE_EDIT_ERROR_PART,       /* no such track, or a second track of one code */
} OdoriScoreEditError;

/* One symbol of one track, as an edit records it. */
typedef struct
{
  guint            part;    /* index into score->parts */
  guint            start;   /* 1-based output frame */
  char            *symbol;
  guint            line;    /* the score line it came from (0 for new symbols), kept for undo */
  OdoriSymbolMods  mods;
} OdoriScoreEditSymbol;

typedef struct _OdoriScoreEdit OdoriScoreEdit;

/* The header lines an edit can set (FORMATS.md §2: "# Title:", "# Author:", "# Date:"). */
typedef enum
{
  ODORI_SCORE_HEADER_TITLE,
  ODORI_SCORE_HEADER_AUTHOR,
  ODORI_SCORE_HEADER_DATE,
  ODORI_SCORE_N_HEADERS,
} OdoriScoreHeader;

GQuark            odori_score_edit_error_quark     (void);

OdoriScoreEdit   *odori_score_edit_new             (const char           *label);
OdoriScoreEdit   *odori_score_edit_ref             (OdoriScoreEdit       *edit);
/* Drops a reference (the edit is freed with the last one). */
void              odori_score_edit_free            (OdoriScoreEdit       *edit);
/* What the edit is called in Undo/Redo ("Move", "Delete"…). */
const char       *odori_score_edit_get_label       (OdoriScoreEdit       *edit);

/* Recording. PART is an index into score->parts. */
void              odori_score_edit_remove_symbol   (OdoriScoreEdit       *edit,
                                                    guint                 part,
                                                    const OdoriScoreSymbol *symbol);
void              odori_score_edit_add_symbol      (OdoriScoreEdit       *edit,
                                                    guint                 part,
                                                    guint                 start,
                                                    const char           *symbol);
/* The same with modifiers (NULL: none). */
void              odori_score_edit_add_symbol_full (OdoriScoreEdit       *edit,
                                                    guint                 part,
                                                    guint                 start,
                                                    const char           *symbol,
                                                    const OdoriSymbolMods *mods);
/* Takes SYMBOL (of track PART) away and puts it, with the same line, on track NEW_PART at
 * NEW_START with NEW_MODS (NULL: its own): a trim, a change of speed or of any modifier,
 * a move to another track. */
void              odori_score_edit_replace_symbol  (OdoriScoreEdit       *edit,
                                                    guint                 part,
                                                    const OdoriScoreSymbol *symbol,
                                                    guint                 new_part,
                                                    guint                 new_start,
                                                    const OdoriSymbolMods *new_mods);
/* "# FootLock:" BEFORE and AFTER (1 on, 0 off, -1 no such line). */
void              odori_score_edit_set_foot_lock   (OdoriScoreEdit       *edit,
                                                    int                   before,
                                                    int                   after);
/* Takes SYMBOL away and puts it at NEW_START (same track, same line, same modifiers). */
void              odori_score_edit_move_symbol     (OdoriScoreEdit       *edit,
                                                    guint                 part,
                                                    const OdoriScoreSymbol *symbol,
                                                    guint                 new_start);
/* BEFORE and AFTER are "# Blend:" values (-1: no such line). */
void              odori_score_edit_set_blend       (OdoriScoreEdit       *edit,
                                                    int                   before,
                                                    int                   after);
/* BEFORE and AFTER are the header line's values (NULL or "": no such line); recorded
 * twice, the first BEFORE and the last AFTER count. */
void              odori_score_edit_set_header      (OdoriScoreEdit       *edit,
                                                    OdoriScoreHeader      header,
                                                    const char           *before,
                                                    const char           *after);
/* Whether the edit sets any header line (to another value). */
gboolean          odori_score_edit_get_sets_header (OdoriScoreEdit       *edit);
/* BEFORE and AFTER are all six music lines (score->music; both valid, see
 * odori_score_music_is_valid ()): Open Music, Remove Music, a tapped tempo, a dragged
 * downbeat or music offset. Copied; recorded twice, the first BEFORE and the last AFTER
 * count. */
void              odori_score_edit_set_music       (OdoriScoreEdit        *edit,
                                                    const OdoriScoreMusic *before,
                                                    const OdoriScoreMusic *after);
/* Whether the edit sets the music lines (to other values). */
gboolean          odori_score_edit_get_sets_music  (OdoriScoreEdit       *edit);
/* BEFORE and AFTER are the times of the score's "# Beats:" file (GArray of double, as
 * odori_beats_load () reads them): a beat mark moved. Copied; recorded twice, the first
 * BEFORE and the last AFTER count. The score does not hold the list: applying and
 * reverting leave it as it is, and the document writes the list the edit leaves into
 * the file (odori_document_apply_edit ()). */
void              odori_score_edit_set_beats       (OdoriScoreEdit       *edit,
                                                    GArray               *before,
                                                    GArray               *after);
/* Whether the edit sets the beat list (to other times). */
gboolean          odori_score_edit_get_sets_beats  (OdoriScoreEdit       *edit);
/* The beat list applying (FORWARD) or reverting leaves; NULL when the edit sets none. */
GArray           *odori_score_edit_get_beats       (OdoriScoreEdit       *edit,
                                                    gboolean              forward);
/* A track edit stands alone: it records no symbols, no blend and no header. */
void              odori_score_edit_insert_part     (OdoriScoreEdit       *edit,
                                                    guint                 position,
                                                    const char           *code,
                                                    const char * const   *sensors);
/* Records PART (copied, with its symbols), at POSITION, for removal. */
void              odori_score_edit_remove_part     (OdoriScoreEdit       *edit,
                                                    guint                 position,
                                                    const OdoriScorePart *part);

gboolean          odori_score_edit_is_empty        (OdoriScoreEdit       *edit);
/* The symbols taken away and put in by applying (OdoriScoreEditSymbol); reverting
 * swaps the two. */
GArray           *odori_score_edit_get_removed     (OdoriScoreEdit       *edit);
GArray           *odori_score_edit_get_added       (OdoriScoreEdit       *edit);
/* The track inserted or removed: its position, or -1 for edits of symbols. */
int               odori_score_edit_get_part_position (OdoriScoreEdit     *edit);
gboolean          odori_score_edit_get_inserts_part  (OdoriScoreEdit     *edit);

gboolean          odori_score_edit_apply           (OdoriScoreEdit       *edit,
                                                    OdoriScore           *score,
                                                    GError              **error);
gboolean          odori_score_edit_revert          (OdoriScoreEdit       *edit,
                                                    OdoriScore           *score,
                                                    GError              **error);

/* Index of PART's symbol at START, or -1. */
int               odori_score_part_find_symbol     (const OdoriScorePart *part,
                                                    guint                 start);
/* Index of the first symbol of PART starting at or after START. */
guint             odori_score_part_lower_bound     (const OdoriScorePart *part,
                                                    guint                 start);
/* Index of the track with CODE, or -1. */
int               odori_score_find_part_index      (OdoriScore           *score,
                                                    const char           *code);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriScoreEdit, odori_score_edit_free)

G_END_DECLS

/* odori-score.h: the Digital Dance Score, DDS (FORMATS.md §2)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-index.h"
#include "odori-text.h"

G_BEGIN_DECLS

#define ODORI_SCORE_ERROR (odori_score_error_quark ())

typedef enum
{
  ODORI_SCORE_ERROR_SYNTAX,       /* a line that is neither a part header nor a symbol */
  ODORI_SCORE_ERROR_START,        /* start frame 0, negative, or not a number */
  ODORI_SCORE_ERROR_DUPLICATE,    /* two symbols of one part at one start; a part twice */
  ODORI_SCORE_ERROR_NO_PART,      /* a symbol line before any part header */
  ODORI_SCORE_ERROR_NUMBER,       /* a bad # FrameTime / # Blend / # FootLock value */
  ODORI_SCORE_ERROR_MODIFIER,     /* an unknown symbol modifier, or one out of range */
  ODORI_SCORE_ERROR_MUSIC,        /* a bad # Tempo / # Downbeat / # Meter / # MusicOffset */
} OdoriScoreError;

/* The music of a score (FORMATS.md §2, DESIGN.md "Music"): its six header lines. All
 * zero is a score without music. Tempo, downbeat, meter and offset are numbers in memory;
 * the score keeps the text each was read from and writes it back unchanged while the
 * value is the one it reads as ("1.250" stays "1.250"). */
typedef struct
{
  char     *path;          /* "# Music:" as written (relative to the score), or NULL */
  double    tempo;         /* "# Tempo:" beats per minute, (0, ODORI_TEMPO_MAX]; 0: none */
  gboolean  has_downbeat;  /* whether "# Downbeat:" is given (else the downbeat is 0) */
  double    downbeat;      /* seconds into the music of a beat counted 1, any sign */
  guint     meter;         /* "# Meter:" beats per bar, 1 to ODORI_METER_MAX; 0: none (4) */
  gboolean  has_offset;    /* whether "# MusicOffset:" is given (else the offset is 0) */
  double    offset;        /* seconds of music at output frame 1, any sign */
  char     *beats_path;    /* "# Beats:" as written (relative to the score), or NULL */
} OdoriScoreMusic;

#define ODORI_TEMPO_MAX          1000.0
#define ODORI_METER_MAX          32
#define ODORI_METER_DEFAULT      4
/* Largest |downbeat|, |offset| and beat time, in seconds: a day. */
#define ODORI_MUSIC_SECONDS_MAX  86400.0

/* A symbol's modifiers (DESIGN.md "Symbol modifiers", FORMATS.md §2): all zero is none,
 * and each zero field is that modifier's absence. */
typedef struct
{
  guint    in;         /* first clip frame kept, 1-based; 0: the first */
  guint    out;        /* last clip frame kept; 0: the last */
  double   speed;      /* 0.1 to 10; 0: as captured */
  guint    repeat;     /* 1 to 1000; 0: once */
  gboolean mirror;
  gboolean has_blend;  /* whether blend overrides the score's */
  guint    blend;      /* 0 to 10000 frames, the blend into this symbol */
} OdoriSymbolMods;

#define ODORI_SPEED_MIN  0.1
#define ODORI_SPEED_MAX  10.0
#define ODORI_REPEAT_MAX 1000
#define ODORI_BLEND_MAX  10000

typedef struct
{
  guint            start;   /* 1-based output frame */
  char            *symbol;  /* "CODE" or "SHOWCODE.CODE" */
  guint            line;
  OdoriSymbolMods  mods;
} OdoriScoreSymbol;

typedef struct
{
  char   *code;
  char  **sensors;  /* NULL-terminated, as written in the score */
  guint   line;
  GArray *symbols;  /* OdoriScoreSymbol, sorted by start */
} OdoriScorePart;

struct _OdoriScore
{
  /*< private >*/
  gatomicrefcount ref_count;
  /*< public >*/
  char          *path;
  OdoriEncoding  encoding;
  char          *title;
  char          *author;
  char          *date;
  char          *index_path;   /* "# Index:" as written (relative to the score), or NULL */
  double         frame_time;   /* "# FrameTime:", 0 when absent */
  int            blend;        /* "# Blend:", -1 when absent */
  int            foot_lock;    /* "# FootLock:" on 1, off 0, absent -1 (off) */
  GPtrArray     *header_lines; /* char*: other '#' lines, kept and written back in order */
  GPtrArray     *parts;        /* OdoriScorePart* */
  GPtrArray     *warnings;     /* OdoriDiagnostic* */
  OdoriScoreMusic music;       /* "# Music:", "# Tempo:"… (set with odori_score_set_music) */
  /*< private >*/
  char          *music_text[4]; /* tempo, downbeat, meter, offset as read, or NULL */
};

GQuark            odori_score_error_quark    (void);
OdoriScore       *odori_score_new            (void);
OdoriScore       *odori_score_ref            (OdoriScore    *score);
void              odori_score_unref          (OdoriScore    *score);
OdoriScore       *odori_score_load           (const char    *path,
                                              GError       **error);
OdoriScore       *odori_score_load_text      (OdoriTextFile *file,
                                              GError       **error);
gboolean          odori_score_save           (OdoriScore    *score,
                                              const char    *path,
                                              GError       **error);
void              odori_score_write          (OdoriScore    *score,
                                              OdoriOutput   *out);
/* Absolute path of the score's index (from "# Index:"), or NULL. */
char             *odori_score_dup_index_path (OdoriScore    *score);
/* Absolute paths of "# Music:" and "# Beats:" (resolved as "# Index:"), or NULL. */
char             *odori_score_dup_music_path (OdoriScore    *score);
char             *odori_score_dup_beats_path (OdoriScore    *score);
/* Replaces score->music by a copy of MUSIC (which must be valid). */
void              odori_score_set_music      (OdoriScore    *score,
                                              const OdoriScoreMusic *music);

/* Frees MUSIC's strings and zeroes it. */
void              odori_score_music_clear    (OdoriScoreMusic       *music);
/* Overwrites DEST (zeroed or cleared: its strings are not freed) with a deep copy of SRC. */
void              odori_score_music_copy     (const OdoriScoreMusic *src,
                                              OdoriScoreMusic       *dest);
gboolean          odori_score_music_equal    (const OdoriScoreMusic *a,
                                              const OdoriScoreMusic *b);
/* Whether every value is in the range the reader accepts. */
gboolean          odori_score_music_is_valid (const OdoriScoreMusic *music);
/* Whether MUSIC says where beats are: a tempo or a beats file. */
gboolean          odori_score_music_has_grid (const OdoriScoreMusic *music);
/* Whether any of the six lines is given. */
gboolean          odori_score_music_is_set   (const OdoriScoreMusic *music);
OdoriScorePart   *odori_score_add_part       (OdoriScore    *score,
                                              const char    *code,
                                              const char * const *sensors);
/* A deep copy of PART (score->parts may hold it), and the free function of score->parts. */
OdoriScorePart   *odori_score_part_copy      (const OdoriScorePart *part);
void              odori_score_part_free      (OdoriScorePart *part);
/* Inserts keeping start order; FALSE if the part already has a symbol at START. */
gboolean          odori_score_part_add_symbol (OdoriScorePart *part,
                                               guint          start,
                                               const char    *symbol);
/* The same with modifiers (NULL: none). */
gboolean          odori_score_part_add_symbol_full (OdoriScorePart        *part,
                                                    guint                  start,
                                                    const char            *symbol,
                                                    const OdoriSymbolMods *mods);

gboolean          odori_symbol_mods_is_none  (const OdoriSymbolMods *mods);
gboolean          odori_symbol_mods_equal    (const OdoriSymbolMods *a,
                                              const OdoriSymbolMods *b);
double            odori_symbol_mods_get_speed  (const OdoriSymbolMods *mods);
guint             odori_symbol_mods_get_repeat (const OdoriSymbolMods *mods);
/* The clip frames IN..OUT kept of a clip of N frames (1-based, OUT clamped to N, IN to
 * OUT): *first and *last; returns their count n'. */
guint             odori_symbol_mods_trim     (const OdoriSymbolMods *mods,
                                              guint                  n,
                                              guint                 *first,
                                              guint                 *last);
/* Frames one copy lasts, m = max (1, round (n' / speed)), for a clip of N frames. */
guint             odori_symbol_mods_copy_frames (const OdoriSymbolMods *mods,
                                                 guint                  n);
/* The symbol's length in the timeline, repeat · m (at most G_MAXINT). */
guint             odori_symbol_mods_length   (const OdoriSymbolMods *mods,
                                              guint                  n);
/* The modifiers as written after the symbol: "" for none, else " mirror speed=0.5 in=10
 * out=60 repeat=2 blend=8" (this order, a leading blank, locale-independent). */
char             *odori_symbol_mods_to_string (const OdoriSymbolMods *mods);
/* Parses one modifier token TEXT[0..LEN) into MODS. FALSE with a message (translated,
 * without file or line) if it is unknown, out of range, or given twice (SEEN holds
 * the bits of those already given; start it at 0). */
gboolean          odori_symbol_mods_parse_token (OdoriSymbolMods *mods,
                                                 const char      *text,
                                                 gsize            len,
                                                 guint           *seen,
                                                 char           **message);
/* Resolves every symbol against INDEX and compares each part's sensors with the index's
 * map. Appends OdoriDiagnostic (file:line of the score) for unknown or ambiguous symbols
 * (errors, candidates named), unknown part codes (errors) and differing sensor lists
 * (warnings). Returns FALSE if any error. */
gboolean          odori_score_resolve        (OdoriScore    *score,
                                              OdoriIndex    *index,
                                              GPtrArray     *diagnostics);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriScore, odori_score_unref)

G_END_DECLS

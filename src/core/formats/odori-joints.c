/* odori-joints.c: NI_JOINTS_TEXT_FILE reader (FORMATS.md §4)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements:
 * - Line 1 is `NI_JOINTS_TEXT_FILE` (trailing blanks allowed). A line starting with a
 *   digit is a frame time in milliseconds (a number and nothing else); a line starting
 *   with a blank is joint data `NAME X Y Z QX QY QZ QW [ANGLE]` (the ninth number, an
 *   angle written by recorders, is read and ignored); blank lines and every other line
 *   are comments.
 * - Times: a time smaller than the previous one means the 16-bit millisecond clock
 *   wrapped, and 60000 ms are added (as many times as needed to pass the previous time).
 *   A time equal to the previous one replaces the earlier frame entirely (warning).
 * - A joint given twice in one frame: the later line wins (warning). A joint missing from
 *   a frame holds its previous value; before its first appearance it takes its first
 *   value (one warning per joint). Names outside FORMATS.md §4's lists are kept as extra
 *   segments (one warning per name).
 * - Quaternions are normalised; a zero quaternion is an error. Positions beyond 1000 km
 *   are refused as garbage.
 * - The result: one segment per joint in order of first appearance, positions in
 *   centimetres (metres × 100) in the FILE's axes, rotations as written (each joint's
 *   rotation relative to its parent, see odori-retarget.c), resampled by
 *   odori_capture_plan_frames(): linear positions, slerp rotations between the two
 *   frames around each output time.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-joints.h"
#include "odori-reader.h"

G_DEFINE_QUARK (odori-joints-error-quark, odori_joints_error)

#define HEADER "NI_JOINTS_TEXT_FILE"
#define WRAP_MS 60000.0
#define MAX_ABS_POSITION_M 1e6
/* Longest joint name, in bytes (as BVA and BVH names): a longer one is garbage that
 * would be copied into every warning and segment. */
#define MAX_NAME 1024

static const char *known_names[] = {
  /* FORMATS.md §4 */
  "PELVIS", "TORSO", "NECK", "HEAD", "L_EYE", "R_EYE",
  "L_SHLDR", "L_ELBOW", "L_HAND", "R_SHLDR", "R_ELBOW", "R_HAND",
  "L_HIP", "L_KNEE", "L_FOOT", "R_HIP", "R_KNEE", "R_FOOT",
  /* the recorders' extras */
  "WAIST", "CHEST", "SKULL", "L_BUST", "R_BUST", "L_COLLAR", "R_COLLAR",
  "L_WRIST", "R_WRIST", "L_FNGRTIP", "R_FNGRTIP", "L_ANKLE", "R_ANKLE",
  "L_TOE", "R_TOE", "L_FINGER", "R_FINGER", "FACE", "AVATAR",
};

typedef struct
{
  guint frame;
  guint joint;
  float pos[3];
  float quat[4];
} Sample;

typedef struct
{
  double   ms;       /* unwrapped */
  guint    line;
  gboolean dropped;  /* replaced by a later frame with the same time */
} Frame;

typedef struct
{
  const char *path;
  GPtrArray  *warnings;
  GPtrArray  *names;        /* char * */
  GHashTable *index;        /* name -> GUINT_TO_POINTER (joint + 1) */
  GArray     *last_frame;   /* guint per joint: frame + 1 of its last sample, 0 none */
  GArray     *last_sample;  /* guint per joint */
  GArray     *frames;       /* Frame */
  GArray     *samples;      /* Sample */
  double      prev_raw;
  double      offset;
} Parser;

gboolean
odori_joints_is_known (const char *name)
{
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (known_names); i++)
    if (strcmp (name, known_names[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
odori_joints_sniff (const char *data,
                    gsize       len)
{
  const char *p = data;
  const char *end = data + len;
  gsize n = strlen (HEADER);

  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if (len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  if ((gsize) (end - p) < n || memcmp (p, HEADER, n) != 0)
    return FALSE;
  /* trailing blanks, up to the line end */
  for (p += n; p < end && *p != '\n' && *p != '\r' && odori_blank_len (p, end) > 0;)
    p += odori_blank_len (p, end);
  return p == end || *p == '\n' || *p == '\r';
}

/* Errors */

/* An excerpt of [s, s + len) kept in *SLOT (freed by the caller's g_autofree), for messages. */
static const char *
keep_excerpt (char      **slot,
              const char *s,
              gsize       len)
{
  g_free (*slot);
  *slot = odori_excerpt (s, len);
  return *slot;
}

/* Lines */

static gboolean
frame_time_line (Parser      *p,
                 const char  *line,
                 gsize        len,
                 guint        lineno,
                 GError     **error)
{
  const char *s = line;
  const char *end = line + len;
  double raw, ms;
  Frame frame = { 0, lineno, FALSE };

  if (!odori_parse_double (&s, end, &raw) || odori_skip_blanks (s, end) != end)
    {
      g_autofree char *text = odori_excerpt (line, len);

      return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_SYNTAX, p->path, lineno,
                              _("expected a frame time in milliseconds, got \"%s\""), text);
    }
  if (!isfinite (raw))
    return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NOT_FINITE, p->path,
                            lineno,
                            _("the frame time is not a finite number"));

  ms = raw + p->offset;
  if (p->frames->len > 0)
    {
      Frame *last = &g_array_index (p->frames, Frame, p->frames->len - 1);

      if (raw < p->prev_raw)
        {
          /* The recorder's clock wrapped (once, normally). */
          double wraps = ceil ((last->ms - ms) / WRAP_MS);

          if (wraps < 1)
            wraps = 1;
          p->offset += wraps * WRAP_MS;
          ms = raw + p->offset;
        }
      if (ms == last->ms)
        {
          odori_add_warning (p->warnings, p->path, lineno,
                             _("frame time %g ms repeats the frame on line %u, which it replaces"),
                             raw, last->line);
          last->dropped = TRUE;
        }
    }
  p->prev_raw = raw;
  frame.ms = ms;
  g_array_append_val (p->frames, frame);
  return TRUE;
}

static guint
joint_index (Parser     *p,
             const char *name,
             gsize       len,
             guint       lineno)
{
  g_autofree char *key = g_strndup (name, len);
  gpointer value = g_hash_table_lookup (p->index, key);
  guint j, zero = 0;

  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;

  j = p->names->len;
  if (!odori_joints_is_known (key))
    odori_add_warning (p->warnings, p->path, lineno,
                       _("unknown joint \"%s\" kept as an extra segment"), key);
  g_ptr_array_add (p->names, g_strdup (key));
  g_hash_table_insert (p->index, g_steal_pointer (&key), GUINT_TO_POINTER (j + 1));
  g_array_append_val (p->last_frame, zero);
  g_array_append_val (p->last_sample, zero);
  return j;
}

static gboolean
joint_line (Parser      *p,
            const char  *line,
            gsize        len,
            guint        lineno,
            GError     **error)
{
  const char *s = line;
  const char *end = line + len;
  const char *name, *tok;
  gsize name_len, tok_len;
  double v[9];
  guint n = 0, j, frame;
  double qlen;
  Sample sample;
  g_autofree char *jn = NULL;  /* the joint name for messages, valid UTF-8 */

  name_len = odori_next_token (&s, end, &name);
  if (name_len == 0)
    return TRUE;  /* a blank line */
  if (name_len > MAX_NAME)
    return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_SYNTAX, p->path, lineno,
                            _("the joint name is %zu bytes long, more than %d"),
                            name_len, MAX_NAME);
  for (gsize k = 0; k < name_len; k++)
    if ((guchar) name[k] < 0x20 || name[k] == 0x7f)
      return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_SYNTAX, p->path, lineno,
                              _("the joint name \"%s\" contains a control character"),
                              keep_excerpt (&jn, name, name_len));
  if (p->frames->len == 0)
    {
      g_autofree char *text = odori_excerpt (name, name_len);

      return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NO_FRAME_TIME, p->path,
                              lineno,
                              _("joint data for \"%s\" before the first frame time line (a line "
                                "starting with a digit: the frame's time in milliseconds)"), text);
    }

  while ((tok_len = odori_next_token (&s, end, &tok)) > 0)
    {
      const char *q = tok;

      if (n == G_N_ELEMENTS (v))
        {
          n++;
          break;
        }
      if (!odori_parse_double (&q, tok + tok_len, &v[n]) || q != tok + tok_len)
        {
          g_autofree char *text = odori_excerpt (tok, tok_len);

          if (odori_looks_non_finite (tok, tok + tok_len))
            return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NOT_FINITE,
                                    p->path, lineno,
                                    _("value %u of joint %s is \"%s\", not a finite number"), n + 1,
                                    keep_excerpt (&jn, name, name_len), text);
          return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NUMBER, p->path,
                                  lineno,
                                  _("value %u of joint %s: expected a number, got \"%s\""), n + 1,
                                  keep_excerpt (&jn, name, name_len), text);
        }
      if (!isfinite (v[n]))
        return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NOT_FINITE, p->path,
                                lineno,
                                _("value %u of joint %s is not a finite number"), n + 1,
                                keep_excerpt (&jn, name, name_len));
      n++;
    }
  if (n < 7 || n > 8)
    return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_SYNTAX, p->path, lineno,
                            g_dngettext (GETTEXT_PACKAGE,
                                         "expected a joint name and 7 numbers (position X Y Z in "
                                         "metres, quaternion X Y Z W), optionally an angle, found "
                                         "%u number after %s",
                                         "expected a joint name and 7 numbers (position X Y Z in "
                                         "metres, quaternion X Y Z W), optionally an angle, found "
                                         "%u numbers after %s",
                                         n),
                            n, keep_excerpt (&jn, name, name_len));
  for (guint k = 0; k < 3; k++)
    if (fabs (v[k]) > MAX_ABS_POSITION_M)
      return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NUMBER, p->path, lineno,
                              _("position %g m of joint %s is out of range"), v[k],
                              keep_excerpt (&jn, name, name_len));
  qlen = sqrt (v[3] * v[3] + v[4] * v[4] + v[5] * v[5] + v[6] * v[6]);
  if (!isfinite (qlen))
    return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NUMBER, p->path, lineno,
                            _("the quaternion of joint %s is out of range"),
                            keep_excerpt (&jn, name, name_len));
  if (!(qlen > 1e-12))
    return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_ZERO_QUATERNION, p->path,
                            lineno,
                            _("the quaternion of joint %s is (0, 0, 0, 0): a rotation needs a "
                              "non-zero quaternion"), keep_excerpt (&jn, name, name_len));

  j = joint_index (p, name, name_len, lineno);
  frame = p->frames->len - 1;
  sample.frame = frame;
  sample.joint = j;
  for (guint k = 0; k < 3; k++)
    sample.pos[k] = (float) (v[k] * 100.0);
  for (guint k = 0; k < 4; k++)
    sample.quat[k] = (float) (v[3 + k] / qlen);

  if (g_array_index (p->last_frame, guint, j) == frame + 1)
    {
      Frame *f = &g_array_index (p->frames, Frame, frame);

      odori_add_warning (p->warnings, p->path, lineno,
                         _("joint %s is given twice in the frame of line %u; this line is used"),
                         (const char *) g_ptr_array_index (p->names, j), f->line);
      g_array_index (p->samples, Sample, g_array_index (p->last_sample, guint, j)) = sample;
      return TRUE;
    }
  g_array_index (p->last_frame, guint, j) = frame + 1;
  g_array_index (p->last_sample, guint, j) = p->samples->len;
  g_array_append_val (p->samples, sample);
  return TRUE;
}

static gboolean
parse_lines (Parser         *p,
             OdoriTextFile  *file,
             GError        **error)
{
  OdoriLineReader reader;
  gboolean header = FALSE;

  odori_line_reader_init (&reader, file);
  while (odori_line_reader_next (&reader))
    {
      const char *line = reader.line;
      gsize len = reader.len;

      if (!header)
        {
          gsize n = strlen (HEADER);

          if (len < n || memcmp (line, HEADER, n) != 0 ||
              odori_skip_blanks (line + n, line + len) != line + len)
            {
              g_autofree char *text = odori_excerpt (line, len);

              return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_HEADER, p->path,
                                      reader.lineno,
                                      _("expected the header NI_JOINTS_TEXT_FILE, got "
                                        "\"%s\""), text);
            }
          header = TRUE;
          continue;
        }
      if (len == 0)
        continue;
      if (g_ascii_isdigit (line[0]))
        {
          if (!frame_time_line (p, line, len, reader.lineno, error))
            return FALSE;
        }
      else if (line[0] == ' ' || line[0] == '\t')
        {
          if (!joint_line (p, line, len, reader.lineno, error))
            return FALSE;
        }
      /* anything else is a comment */
    }
  if (!header)
    return odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_HEADER, p->path, 1,
                            _("expected the header NI_JOINTS_TEXT_FILE, got an empty file"));
  return TRUE;
}

/* Resampling */

typedef struct
{
  guint *start;   /* per joint: first index into order[] */
  guint *count;
  guint *order;   /* sample indices grouped by joint, in frame order */
} JointSamples;

static void
joint_samples_init (JointSamples *js,
                    Parser       *p,
                    const guint  *kept)
{
  guint n_joints = p->names->len;
  g_autofree guint *fill = g_new0 (guint, n_joints);

  js->start = g_new0 (guint, n_joints + 1);
  js->count = g_new0 (guint, n_joints);
  js->order = g_new (guint, MAX (p->samples->len, 1));
  for (guint i = 0; i < p->samples->len; i++)
    {
      Sample *s = &g_array_index (p->samples, Sample, i);

      if (kept[s->frame] != G_MAXUINT)
        js->count[s->joint]++;
    }
  for (guint j = 0; j < n_joints; j++)
    js->start[j + 1] = js->start[j] + js->count[j];
  for (guint i = 0; i < p->samples->len; i++)
    {
      Sample *s = &g_array_index (p->samples, Sample, i);

      if (kept[s->frame] == G_MAXUINT)
        continue;
      s->frame = kept[s->frame];
      js->order[js->start[s->joint] + fill[s->joint]++] = i;
    }
}

static void
joint_samples_clear (JointSamples *js)
{
  g_free (js->start);
  g_free (js->count);
  g_free (js->order);
}

/* The sample of joint J that holds at (kept) frame I, advancing CUR. */
static const Sample *
held_sample (Parser             *p,
             const JointSamples *js,
             guint               j,
             guint               i,
             guint              *cur)
{
  const guint *order = js->order + js->start[j];

  while (*cur + 1 < js->count[j] &&
         g_array_index (p->samples, Sample, order[*cur + 1]).frame <= i)
    (*cur)++;
  return &g_array_index (p->samples, Sample, order[*cur]);
}

/* The sample at frame I + 1 without moving the cursor. */
static const Sample *
next_sample (Parser             *p,
             const JointSamples *js,
             guint               j,
             guint               i,
             guint               cur)
{
  const guint *order = js->order + js->start[j];

  if (cur + 1 < js->count[j] &&
      g_array_index (p->samples, Sample, order[cur + 1]).frame <= i + 1)
    return &g_array_index (p->samples, Sample, order[cur + 1]);
  return &g_array_index (p->samples, Sample, order[cur]);
}

static void
warn_missing (Parser             *p,
              const JointSamples *js,
              const Frame        *kept_frames,
              guint               n_in)
{
  for (guint j = 0; j < p->names->len; j++)
    {
      const guint *order = js->order + js->start[j];
      guint expect = 0;

      if (js->count[j] == n_in || js->count[j] == 0)
        continue;
      /* the first frame without it */
      for (guint k = 0; k < js->count[j]; k++, expect++)
        if (g_array_index (p->samples, Sample, order[k]).frame != expect)
          break;
      odori_add_warning (p->warnings, p->path, kept_frames[MIN (expect, n_in - 1)].line,
                         _("joint %s is missing from %u of %u frames (first from this frame); it "
                           "holds its previous value"),
                         (const char *) g_ptr_array_index (p->names, j), n_in - js->count[j], n_in);
    }
}

static OdoriCapture *
build_capture (Parser                   *p,
               gsize                     input_bytes,
               const OdoriImportOptions *options,
               GError                  **error)
{
  g_autofree guint *kept = g_new (guint, p->frames->len);
  g_autofree Frame *kept_frames = g_new (Frame, p->frames->len);
  g_autofree double *times = g_new (double, p->frames->len);
  g_autofree guint *cursor = NULL;
  g_autofree guint *live = g_new (guint, MAX (p->names->len, 1));
  JointSamples js;
  g_autoptr(OdoriMotion) motion = NULL;
  OdoriCapture *capture = NULL;
  guint n_in = 0, n_out, n_joints = 0, i = 0;
  double frame_time;
  gboolean resample;

  for (guint f = 0; f < p->frames->len; f++)
    {
      Frame *fr = &g_array_index (p->frames, Frame, f);

      kept[f] = fr->dropped ? G_MAXUINT : n_in;
      if (!fr->dropped)
        {
          kept_frames[n_in] = *fr;
          times[n_in++] = fr->ms / 1000.0;
        }
    }

  joint_samples_init (&js, p, kept);
  /* a joint seen only in frames that a repeated time replaced has no data at all */
  for (guint j = 0; j < p->names->len; j++)
    if (js.count[j] > 0)
      live[n_joints++] = j;
    else
      odori_add_warning (p->warnings, p->path, 0,
                         _("joint %s appears only in replaced frames; it is left out"),
                         (const char *) g_ptr_array_index (p->names, j));
  if (n_joints == 0)
    {
      odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_EMPTY, p->path,
                       kept_frames[0].line,
                       _("no joint data line in the frames that are kept"));
      goto out;
    }
  warn_missing (p, &js, kept_frames, n_in);

  if (!odori_capture_plan_frames (p->path, times, n_in, options->fps, n_joints, input_bytes,
                                  &n_out, &frame_time, &resample, error))
    goto out;
  motion = odori_motion_new (n_joints, n_out, frame_time, error);
  if (motion == NULL)
    goto out;
  for (guint j = 0; j < n_joints; j++)
    odori_motion_set_segment_name (motion, j, g_ptr_array_index (p->names, live[j]));
  odori_capture_set_units (motion, ODORI_UNIT_CENTIMETERS);
  cursor = g_new0 (guint, n_joints);

  for (guint k = 0; k < n_out; k++)
    {
      double t = resample ? times[0] + k * frame_time : times[MIN (k, n_in - 1)];
      float u = 0;

      if (!resample)
        i = MIN (k, n_in - 1);
      else
        {
          while (i + 1 < n_in && times[i + 1] <= t)
            i++;
          if (i + 1 < n_in && times[i + 1] > times[i])
            u = (float) CLAMP ((t - times[i]) / (times[i + 1] - times[i]), 0.0, 1.0);
        }
      for (guint j = 0; j < n_joints; j++)
        {
          OdoriTransform *tr = odori_motion_get (motion, k, j);
          const Sample *a = held_sample (p, &js, live[j], i, &cursor[j]);
          const Sample *b = u > 0 ? next_sample (p, &js, live[j], i, cursor[j]) : a;

          for (int c = 0; c < 3; c++)
            tr->position[c] = a->pos[c] + u * (b->pos[c] - a->pos[c]);
          if (b == a)
            memcpy (tr->rotation, a->quat, sizeof tr->rotation);
          else
            odori_quat_slerp (a->quat, b->quat, u, tr->rotation);
        }
    }

  g_free (motion->path);
  motion->path = g_strdup (p->path);
  capture = odori_capture_new (ODORI_CAPTURE_JOINTS, g_steal_pointer (&motion));
  capture->has_rotations = TRUE;
  capture->rotations_local = TRUE;
  capture->n_source_frames = n_in;
  capture->source_duration = times[n_in - 1] - times[0];
  capture->resampled = resample;

out:
  joint_samples_clear (&js);
  return capture;
}

OdoriCapture *
odori_joints_load_text (OdoriTextFile            *file,
                        const OdoriImportOptions *options,
                        GPtrArray                *warnings,
                        GError                  **error)
{
  OdoriImportOptions defaults;
  Parser p = { 0 };
  OdoriCapture *capture = NULL;
  gsize len;

  g_return_val_if_fail (file != NULL, NULL);

  if (options == NULL)
    {
      odori_import_options_init (&defaults);
      options = &defaults;
    }
  odori_text_file_get_data (file, &len);
  p.path = odori_text_file_get_path (file);
  p.warnings = warnings;
  p.names = g_ptr_array_new_with_free_func (g_free);
  p.index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p.last_frame = g_array_new (FALSE, FALSE, sizeof (guint));
  p.last_sample = g_array_new (FALSE, FALSE, sizeof (guint));
  p.frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  p.samples = g_array_new (FALSE, FALSE, sizeof (Sample));

  if (!parse_lines (&p, file, error))
    goto out;
  if (p.frames->len == 0)
    {
      odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_EMPTY, p.path, 2,
                       _("no frame time line (a line starting with a digit: the frame's time in "
                         "milliseconds)"));
      goto out;
    }
  if (p.samples->len == 0)
    {
      odori_set_error (error, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_EMPTY, p.path,
                       g_array_index (p.frames, Frame, 0).line,
                       _("no joint data line (a line starting with a blank: name, X Y Z, "
                         "quaternion)"));
      goto out;
    }
  capture = build_capture (&p, len, options, error);

out:
  g_ptr_array_unref (p.names);
  g_hash_table_unref (p.index);
  g_array_unref (p.last_frame);
  g_array_unref (p.last_sample);
  g_array_unref (p.frames);
  g_array_unref (p.samples);
  return capture;
}

OdoriCapture *
odori_joints_load (const char               *path,
                   const OdoriImportOptions *options,
                   GPtrArray                *warnings,
                   GError                  **error)
{
  g_autoptr(OdoriTextFile) file = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  file = odori_text_file_open (path, error);
  if (file == NULL)
    return NULL;
  return odori_joints_load_text (file, options, warnings, error);
}

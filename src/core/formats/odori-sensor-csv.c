/* odori-sensor-csv.c: one job, reading the inertial suit's CSV export into a capture
 * (FORMATS.md §5)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements:
 * - Text: UTF-8 with or without BOM; a file that is not UTF-8 is decoded as GB18030 (the
 *   superset of GBK, which the suit's Chinese software writes), else as CP932. CRLF, LF or
 *   CR line ends. The header is the first non-empty line.
 * - Separator: the most frequent of `,` `;` and tab outside quotes in the header (`,` on
 *   a tie). With `;` a cell may use a decimal comma (`0,5`). Cells may be double-quoted
 *   (`""` is a quote inside); blanks around cells are ignored.
 * - Columns, by name (case-insensitive keywords, sensor names as written):
 *   the time column is the first whose name starts with "Time" (e.g. `Time(Second)`) or
 *   contains 时间, in seconds; `Quaternion:<Sensor>-W|X|Y|Z`; `Euler:<Sensor>-X|Y|Z` in
 *   degrees, applied in OdoriImportOptions.euler_order (default ZXY: R = Rz·Rx·Ry);
 *   `Position:<Sensor>-X|Y|Z`. A sensor with quaternion and Euler columns uses the
 *   quaternion (warning); a group with a missing component, or a column given twice, is
 *   an error. Other columns are skipped with one warning listing them.
 * - Rows: every used cell must be present and numeric (error naming the row, its line and
 *   the column); cells of skipped columns are not looked at; a blank line is skipped (a
 *   warning unless it is trailing). Times must not go back; a repeated time replaces the
 *   earlier row (warning). Without a time column, rows are 1/100 s apart (the suit's rate)
 *   with a warning.
 * - Positions: in OdoriImportOptions.csv_unit; when that is UNKNOWN the unit is guessed
 *   from the body (head to foot: under 5 → metres, over 500 → millimetres, else
 *   centimetres) or, without those sensors, from the largest coordinate (under 5 →
 *   metres, else centimetres), and the guess is reported as a warning.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-reader.h"
#include "odori-sensor-csv.h"
#include "odori-text.h"

G_DEFINE_QUARK (odori-sensor-csv-error-quark, odori_sensor_csv_error)

#define SUIT_RATE 100.0
#define MAX_UNKNOWN_LISTED 8
/* The suit writes about 200 columns with names of a few dozen bytes: a header beyond these
 * is garbage (and every column costs a name and a slot). */
#define MAX_COLUMNS 10000
#define MAX_COLUMN_NAME 1024
#define MAX_ABS_VALUE 1e15

typedef enum
{
  COL_UNKNOWN,
  COL_TIME,
  COL_QUAT,
  COL_EULER,
  COL_POS,
} ColumnKind;

typedef struct
{
  char       *name;
  ColumnKind  kind;
  guint       sensor;
  guint       comp;   /* QUAT: 0 W, 1 X, 2 Y, 3 Z; EULER, POS: 0 X, 1 Y, 2 Z */
  int         slot;   /* index into a row's values, -1 if not used */
} Column;

typedef struct
{
  char  *name;
  int    quat[4];    /* column index or -1 */
  int    euler[3];
  int    pos[3];
  gboolean use_quat;
  gboolean use_euler;
  gboolean use_pos;
} Sensor;

typedef struct
{
  const char  *path;
  GPtrArray   *warnings;
  char         sep;
  GArray      *columns;  /* Column */
  GPtrArray   *sensors;  /* Sensor * */
  int          time_col;
  guint        n_slots;
  GArray      *times;    /* double per row */
  GArray      *lines;    /* guint per row */
  GArray      *values;   /* float, n_slots per row */
} Parser;

typedef struct
{
  const char *start;
  gsize       len;
  gboolean    quoted;
} Cell;

/* Cells */

static char
guess_separator (const char *line,
                 gsize       len)
{
  guint commas = 0, semis = 0, tabs = 0;
  gboolean quoted = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      if (line[i] == '"')
        quoted = !quoted;
      else if (!quoted && line[i] == ',')
        commas++;
      else if (!quoted && line[i] == ';')
        semis++;
      else if (!quoted && line[i] == '\t')
        tabs++;
    }
  if (semis > commas && semis >= tabs)
    return ';';
  if (tabs > commas && tabs > semis)
    return '\t';
  return ',';
}

/* Splits a line into at most MAX cells (spans into the line; quoted cells exclude their
 * quotes and may contain doubled quotes, see cell_text()); the rest of the line is not
 * split. */
static void
split_cells (const char *line,
             gsize       len,
             char        sep,
             guint       max,
             GArray     *cells)
{
  const char *p = line;
  const char *end = line + len;

  g_array_set_size (cells, 0);
  for (;;)
    {
      Cell cell = { NULL, 0, FALSE };
      const char *s = sep == '\t' ? p : odori_skip_blanks (p, end);

      if (s < end && *s == '"')
        {
          const char *q = s + 1;

          while (q < end && !(*q == '"' && (q + 1 >= end || q[1] != '"')))
            q += (*q == '"') ? 2 : 1;
          cell.start = s + 1;
          cell.len = MIN (q, end) - cell.start;
          cell.quoted = TRUE;
          p = q < end ? q + 1 : end;
          while (p < end && *p != sep)
            p++;
        }
      else
        {
          const char *e = s;

          while (e < end && *e != sep)
            e++;
          p = e;
          if (sep != '\t')
            e = odori_trim_blanks (s, e);
          cell.start = s;
          cell.len = e - s;
        }
      g_array_append_val (cells, cell);
      if (p >= end || cells->len >= max)
        break;
      p++;  /* past the separator */
    }
}

static char *
cell_text (const Cell *cell)
{
  GString *s = g_string_sized_new (cell->len);

  for (gsize i = 0; i < cell->len; i++)
    {
      g_string_append_c (s, cell->start[i]);
      if (cell->quoted && cell->start[i] == '"' && i + 1 < cell->len && cell->start[i + 1] == '"')
        i++;
    }
  return g_strstrip (g_string_free (s, FALSE));
}

/* Header */

static gboolean
has_prefix_ci (const char *s,
               const char *prefix)
{
  return g_ascii_strncasecmp (s, prefix, strlen (prefix)) == 0;
}

static guint
sensor_index (Parser     *p,
              const char *name,
              gsize       len)
{
  Sensor *sensor;

  for (guint i = 0; i < p->sensors->len; i++)
    {
      Sensor *s = g_ptr_array_index (p->sensors, i);

      if (strlen (s->name) == len && memcmp (s->name, name, len) == 0)
        return i;
    }
  sensor = g_new0 (Sensor, 1);
  sensor->name = g_strndup (name, len);
  for (int k = 0; k < 4; k++)
    sensor->quat[k] = -1;
  for (int k = 0; k < 3; k++)
    sensor->euler[k] = sensor->pos[k] = -1;
  g_ptr_array_add (p->sensors, sensor);
  return p->sensors->len - 1;
}

static void
sensor_free (gpointer data)
{
  Sensor *s = data;

  g_free (s->name);
  g_free (s);
}

/* "Kind:<Sensor>-<C>": fills the column, or leaves it unknown. */
static void
classify_column (Parser *p,
                 Column *col)
{
  static const struct { const char *prefix; ColumnKind kind; const char *comps; } groups[] = {
    { "Quaternion:", COL_QUAT, "WXYZ" },
    { "Euler:", COL_EULER, "XYZ" },
    { "Position:", COL_POS, "XYZ" },
  };
  const char *name = col->name;

  col->kind = COL_UNKNOWN;
  if (p->time_col < 0 && (has_prefix_ci (name, "time") || strstr (name, "时间") != NULL))
    {
      col->kind = COL_TIME;
      return;
    }
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      const char *sensor, *dash, *c;

      if (!has_prefix_ci (name, groups[g].prefix))
        continue;
      sensor = name + strlen (groups[g].prefix);
      dash = strrchr (sensor, '-');
      if (dash == NULL || dash == sensor || dash[1] == '\0' || dash[2] != '\0')
        return;
      c = strchr (groups[g].comps, g_ascii_toupper (dash[1]));
      if (c == NULL)
        return;
      col->kind = groups[g].kind;
      col->comp = c - groups[g].comps;
      col->sensor = sensor_index (p, sensor, dash - sensor);
      return;
    }
}

/* A sensor name becomes a segment name: no control characters (writers would have to
 * replace them, and two names could then become one). */
static gboolean
name_is_text (const char *name)
{
  for (const char *c = name; *c; c++)
    if ((guchar) *c < 0x20 || *c == 0x7f)
      return FALSE;
  return TRUE;
}

static int *
component_slot (Sensor *s,
                Column *col)
{
  switch (col->kind)
    {
    case COL_QUAT: return &s->quat[col->comp];
    case COL_EULER: return &s->euler[col->comp];
    case COL_POS: return &s->pos[col->comp];
    case COL_TIME:
    case COL_UNKNOWN:
    default: return NULL;
    }
}

static const char *
missing_components (const int  *cols,
                    guint       n,
                    const char *comps,
                    char        buf[8])
{
  guint k = 0;

  for (guint i = 0; i < n; i++)
    if (cols[i] < 0)
      buf[k++] = comps[i];
  buf[k] = '\0';
  return buf;
}

static gboolean
check_group (Parser      *p,
             Sensor      *s,
             const int   *cols,
             guint        n,
             const char  *kind,
             const char  *comps,
             gboolean    *use,
             GError     **error)
{
  guint present = 0;
  char buf[8];

  for (guint i = 0; i < n; i++)
    present += cols[i] >= 0;
  *use = present == n;
  if (present == 0 || present == n)
    return TRUE;
  missing_components (cols, n, comps, buf);
  return odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_HEADER, p->path, 1,
                          _("the %s columns of sensor %s are incomplete: no column for %s "
                            "(expected %s:%s-%c for each of "
                            "%s)"), kind, s->name, buf, kind, s->name, buf[0], comps);
}

static gboolean
parse_header (Parser      *p,
              const char  *line,
              gsize        len,
              guint        lineno,
              GError     **error)
{
  g_autoptr(GArray) cells = g_array_new (FALSE, FALSE, sizeof (Cell));
  g_autoptr(GString) unknown = g_string_new (NULL);
  guint n_unknown = 0;
  gboolean any_rotation = FALSE, any = FALSE;

  p->sep = guess_separator (line, len);
  split_cells (line, len, p->sep, MAX_COLUMNS + 1, cells);
  if (cells->len > MAX_COLUMNS)
    return odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_HEADER, p->path,
                            lineno,
                            _("the header has more than %d columns"), MAX_COLUMNS);
  for (guint c = 0; c < cells->len; c++)
    if (g_array_index (cells, Cell, c).len > MAX_COLUMN_NAME)
      return odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_HEADER, p->path,
                              lineno,
                              _("the name of column %u is %zu bytes long, more than "
                                "%d"), c + 1, g_array_index (cells, Cell, c).len,
                              MAX_COLUMN_NAME);
  for (guint c = 0; c < cells->len; c++)
    {
      Column col = { cell_text (&g_array_index (cells, Cell, c)), COL_UNKNOWN, 0, 0, -1 };

      classify_column (p, &col);
      if (col.kind != COL_TIME && col.kind != COL_UNKNOWN &&
          !name_is_text (((Sensor *) g_ptr_array_index (p->sensors, col.sensor))->name))
        {
          odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_HEADER, p->path,
                           lineno,
                           _("the sensor name in column %u contains a control character"), c + 1);
          g_free (col.name);
          return FALSE;
        }
      if (col.kind == COL_TIME)
        p->time_col = c;
      else if (col.kind != COL_UNKNOWN)
        {
          Sensor *s = g_ptr_array_index (p->sensors, col.sensor);
          int *slot = component_slot (s, &col);

          if (*slot >= 0)
            {
              odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_HEADER,
                               p->path, lineno,
                               _("column \"%s\" appears twice (columns %d and %u)"), col.name,
                               *slot + 1, c + 1);
              g_free (col.name);
              return FALSE;
            }
          *slot = c;
        }
      else if (col.name[0] != '\0')
        {
          if (n_unknown < MAX_UNKNOWN_LISTED)
            g_string_append_printf (unknown, "%s\"%s\"", n_unknown ? ", " : "", col.name);
          n_unknown++;
        }
      g_array_append_val (p->columns, col);
    }

  for (guint i = 0; i < p->sensors->len; i++)
    {
      Sensor *s = g_ptr_array_index (p->sensors, i);

      if (!check_group (p, s, s->quat, 4, "Quaternion", "WXYZ", &s->use_quat, error) ||
          !check_group (p, s, s->euler, 3, "Euler", "XYZ", &s->use_euler, error) ||
          !check_group (p, s, s->pos, 3, "Position", "XYZ", &s->use_pos, error))
        return FALSE;
      if (s->use_quat && s->use_euler)
        {
          odori_add_warning (p->warnings, p->path, lineno,
                             _("sensor %s has quaternion and Euler columns; the quaternion is "
                               "used"),
                             s->name);
          s->use_euler = FALSE;
        }
      any_rotation = any_rotation || s->use_quat || s->use_euler;
      any = any || s->use_quat || s->use_euler || s->use_pos;
    }
  if (!any)
    return odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_HEADER, p->path,
                            lineno,
                            _("no Quaternion:<Sensor>-W/X/Y/Z, Euler:<Sensor>-X/Y/Z or "
                              "Position:<Sensor>-X/Y/Z columns in the header"));
  if (n_unknown > 0)
    odori_add_warning (p->warnings, p->path, lineno,
                       g_dngettext (GETTEXT_PACKAGE, "%u column skipped: %s%s",
                                    "%u columns skipped: %s%s", n_unknown),
                       n_unknown, unknown->str,
                       n_unknown > MAX_UNKNOWN_LISTED ? _(" and more") : "");
  if (p->time_col < 0)
    odori_add_warning (p->warnings, p->path, lineno,
                       _("no time column (Time(Second)): rows are taken 1/100 s apart"));

  /* Give every used column a slot in the row. */
  for (guint c = 0; c < p->columns->len; c++)
    {
      Column *col = &g_array_index (p->columns, Column, c);
      Sensor *s;

      if (col->kind == COL_TIME || col->kind == COL_UNKNOWN)
        continue;
      s = g_ptr_array_index (p->sensors, col->sensor);
      if ((col->kind == COL_QUAT && s->use_quat) || (col->kind == COL_EULER && s->use_euler) ||
          (col->kind == COL_POS && s->use_pos))
        col->slot = p->n_slots++;
    }
  return TRUE;
}

/* Rows */

static gboolean
parse_cell (Parser      *p,
            const Cell  *cell,
            guint        row,
            guint        lineno,
            guint        c,
            double      *out,
            GError     **error)
{
  const Column *col = &g_array_index (p->columns, Column, c);
  char buf[64];
  const char *s = cell->start;
  const char *end = cell->start + cell->len;
  const char *q;

  if (cell->len == 0)
    return odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_MISSING_CELL,
                            p->path, lineno,
                            _("row %u, column \"%s\" (column %u): the cell is empty"), row,
                            col->name, c + 1);
  if (p->sep == ';' && cell->len < sizeof buf && memchr (s, ',', cell->len) != NULL &&
      memchr (s, '.', cell->len) == NULL)
    {
      /* a decimal comma */
      memcpy (buf, s, cell->len);
      for (gsize i = 0; i < cell->len; i++)
        if (buf[i] == ',')
          buf[i] = '.';
      s = buf;
      end = buf + cell->len;
    }
  q = s;
  if (!odori_parse_double (&q, end, out) || q != end || !isfinite (*out))
    {
      g_autofree char *text = odori_excerpt (cell->start, cell->len);

      if (odori_looks_non_finite (s, end) || (q == end && !isfinite (*out)))
        return odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_NOT_FINITE,
                                p->path, lineno,
                                _("row %u, column \"%s\" (column %u): \"%s\" is not a finite "
                                  "number"),
                                row, col->name, c + 1, text);
      return odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_NUMBER, p->path,
                              lineno,
                              _("row %u, column \"%s\" (column %u): expected a number, got \"%s\""),
                              row, col->name, c + 1, text);
    }
  /* Values are kept as floats: beyond this (BVA's limit too) they are garbage, and a
   * quaternion component of 1e49 would become inf, and its rotation NaN. */
  if (fabs (*out) > MAX_ABS_VALUE)
    {
      g_autofree char *text = odori_excerpt (cell->start, cell->len);

      return odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_NUMBER, p->path,
                              lineno,
                              _("row %u, column \"%s\" (column %u): %s is out of range"),
                              row, col->name, c + 1, text);
    }
  return TRUE;
}

static gboolean
check_quaternions (Parser      *p,
                   const float *values,
                   guint        row,
                   guint        lineno,
                   GError     **error)
{
  for (guint i = 0; i < p->sensors->len; i++)
    {
      Sensor *s = g_ptr_array_index (p->sensors, i);
      double n = 0;

      if (!s->use_quat)
        continue;
      for (int k = 0; k < 4; k++)
        {
          double v = values[g_array_index (p->columns, Column, s->quat[k]).slot];
          n += v * v;
        }
      if (!(n > 1e-24))
        return odori_set_error (error, ODORI_SENSOR_CSV_ERROR,
                                ODORI_SENSOR_CSV_ERROR_ZERO_QUATERNION, p->path, lineno,
                                _("row %u, column \"%s\" (column %d): the quaternion of %s is (0, "
                                  "0, 0, 0): a rotation needs a non-zero quaternion"), row,
                                g_array_index (p->columns, Column, s->quat[0]).name, s->quat[0] + 1,
                                s->name);
    }
  return TRUE;
}

static gboolean
is_blank_row (const char *line,
              gsize       len,
              char        sep)
{
  const char *end = line + len;

  for (const char *s = line; s < end;)
    {
      gsize n = odori_blank_len (s, end);

      if (n == 0 && *s != sep)
        return FALSE;
      s += MAX (n, 1);
    }
  return TRUE;
}

static gboolean
parse_row (Parser      *p,
           GArray      *cells,
           const char  *line,
           gsize        len,
           guint        lineno,
           float       *values,
           double      *time,
           GError     **error)
{
  guint row = p->times->len + 1;

  /* Cells beyond the header's columns are never looked at: not split either. */
  split_cells (line, len, p->sep, MAX (p->columns->len, 1), cells);
  for (guint c = 0; c < p->columns->len; c++)
    {
      const Column *col = &g_array_index (p->columns, Column, c);
      double v;

      if (col->slot < 0 && (int) c != p->time_col)
        continue;
      if (c >= cells->len)
        return odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_MISSING_CELL,
                                p->path, lineno,
                                _("row %u has %u cells: no cell for column \"%s\" (column "
                                  "%u)"), row,
                                cells->len, col->name, c + 1);
      if (!parse_cell (p, &g_array_index (cells, Cell, c), row, lineno, c, &v, error))
        return FALSE;
      if ((int) c == p->time_col)
        *time = v;
      else
        values[col->slot] = (float) v;
    }
  if (p->time_col < 0)
    *time = (row - 1) / SUIT_RATE;
  return check_quaternions (p, values, row, lineno, error);
}

static gboolean
parse_rows (Parser          *p,
            OdoriLineReader *reader,
            GError         **error)
{
  g_autoptr(GArray) cells = g_array_new (FALSE, FALSE, sizeof (Cell));
  g_autofree float *values = g_new0 (float, MAX (p->n_slots, 1));
  guint blank_line = 0;

  while (odori_line_reader_next (reader))
    {
      double time = 0;

      if (is_blank_row (reader->line, reader->len, p->sep))
        {
          if (blank_line == 0)
            blank_line = reader->lineno;
          continue;
        }
      if (blank_line != 0)
        {
          odori_add_warning (p->warnings, p->path, blank_line, _("blank line skipped"));
          blank_line = 0;
        }
      if (!parse_row (p, cells, reader->line, reader->len, reader->lineno, values, &time, error))
        return FALSE;

      if (p->times->len > 0)
        {
          double prev = g_array_index (p->times, double, p->times->len - 1);

          if (time < prev)
            return odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_TIME,
                                    p->path, reader->lineno,
                                    _("row %u: time %g s is before the previous row's %g s"),
                                    p->times->len + 1, time, prev);
          if (time == prev)
            {
              odori_add_warning (p->warnings, p->path, reader->lineno,
                                 _("row %u repeats time %g s and replaces the row on line %u"),
                                 p->times->len + 1, time,
                                 g_array_index (p->lines, guint, p->lines->len - 1));
              memcpy (&g_array_index (p->values, float, (gsize) (p->times->len - 1) * p->n_slots),
                      values, p->n_slots * sizeof (float));
              g_array_index (p->lines, guint, p->lines->len - 1) = reader->lineno;
              continue;
            }
        }
      g_array_append_val (p->times, time);
      g_array_append_val (p->lines, reader->lineno);
      g_array_append_vals (p->values, values, p->n_slots);
    }
  return TRUE;
}

/* Building the capture */

static double
row_value (Parser *p,
           guint   row,
           int     column)
{
  int slot = g_array_index (p->columns, Column, column).slot;

  return g_array_index (p->values, float, (gsize) row * p->n_slots + slot);
}

static int
find_sensor (Parser     *p,
             const char *name)
{
  for (guint i = 0; i < p->sensors->len; i++)
    if (g_ascii_strcasecmp (((Sensor *) g_ptr_array_index (p->sensors, i))->name, name) == 0)
      return i;
  return -1;
}

static gboolean
sensor_position (Parser *p,
                 int     sensor,
                 guint   row,
                 double  out[3])
{
  Sensor *s;

  if (sensor < 0)
    return FALSE;
  s = g_ptr_array_index (p->sensors, sensor);
  if (!s->use_pos)
    return FALSE;
  for (int k = 0; k < 3; k++)
    out[k] = row_value (p, row, s->pos[k]);
  return TRUE;
}

/* Centimetres per unit of the Position columns. */
static double
position_scale (Parser                   *p,
                const OdoriImportOptions *options)
{
  double head[3], foot[3], extent = 0, height;
  gboolean any = FALSE;
  const char *guess;
  double scale;

  switch (options->csv_unit)
    {
    case ODORI_UNIT_METERS: return 100.0;
    case ODORI_UNIT_CENTIMETERS: return 1.0;
    case ODORI_UNIT_MILLIMETERS: return 0.1;
    case ODORI_UNIT_INCHES: return 2.54;
    default: break;
    }

  for (guint i = 0; i < p->sensors->len; i++)
    any = any || ((Sensor *) g_ptr_array_index (p->sensors, i))->use_pos;
  if (!any)
    return 1.0;

  if (sensor_position (p, find_sensor (p, "Head"), 0, head) &&
      (sensor_position (p, find_sensor (p, "LeftFoot"), 0, foot) ||
       sensor_position (p, find_sensor (p, "RightFoot"), 0, foot)))
    {
      height = sqrt ((head[0] - foot[0]) * (head[0] - foot[0]) +
                     (head[1] - foot[1]) * (head[1] - foot[1]) +
                     (head[2] - foot[2]) * (head[2] - foot[2]));
      scale = height < 5 ? 100.0 : height > 500 ? 0.1 : 1.0;
    }
  else
    {
      for (guint i = 0; i < p->sensors->len; i++)
        {
          Sensor *s = g_ptr_array_index (p->sensors, i);

          for (guint r = 0; s->use_pos && r < p->times->len; r++)
            for (int k = 0; k < 3; k++)
              extent = MAX (extent, fabs (row_value (p, r, s->pos[k])));
        }
      scale = extent < 5 ? 100.0 : 1.0;
    }
  guess = scale == 100.0 ? _("metres") : scale == 0.1 ? _("millimetres") : _("centimetres");
  odori_add_warning (p->warnings, p->path, 1,
                     _("positions taken as %s (guessed from their size; set the unit to override)"),
                     guess);
  return scale;
}

static void
sensor_rotation (Parser     *p,
                 Sensor     *s,
                 guint       row,
                 const char *order,
                 float       q[4])
{
  if (s->use_quat)
    {
      double w = row_value (p, row, s->quat[0]);
      double x = row_value (p, row, s->quat[1]);
      double y = row_value (p, row, s->quat[2]);
      double z = row_value (p, row, s->quat[3]);
      double n = sqrt (w * w + x * x + y * y + z * z);

      q[0] = (float) (x / n);
      q[1] = (float) (y / n);
      q[2] = (float) (z / n);
      q[3] = (float) (w / n);
    }
  else if (s->use_euler)
    {
      double xyz[3], angles[3];

      for (int k = 0; k < 3; k++)
        xyz[k] = row_value (p, row, s->euler[k]);
      for (int k = 0; k < 3; k++)
        angles[k] = xyz[order[k] - 'X'];
      odori_euler_to_quat (order, angles, q);
    }
  else
    glm_quat_identity (q);
}

static gboolean
valid_order (const char *order)
{
  if (order == NULL || strlen (order) != 3)
    return FALSE;
  for (int k = 0; k < 3; k++)
    if (order[k] < 'X' || order[k] > 'Z' || (k > 0 && order[k] == order[k - 1]))
      return FALSE;
  return TRUE;
}

static OdoriCapture *
build_capture (Parser                   *p,
               gsize                     input_bytes,
               const OdoriImportOptions *options,
               GError                  **error)
{
  g_autoptr(OdoriMotion) motion = NULL;
  double *times = (double *) p->times->data;
  guint n_in = p->times->len, n_sensors = p->sensors->len, n_out, i = 0;
  double frame_time, scale;
  gboolean resample, any_rotation = FALSE;
  const char *order = valid_order (options->euler_order) ? options->euler_order : "ZXY";
  OdoriCapture *capture;

  if (!valid_order (options->euler_order))
    odori_add_warning (p->warnings, p->path, 1,
                       _("Euler order \"%s\" is not three axes like ZXY; using ZXY"),
                       options->euler_order);
  if (!odori_capture_plan_frames (p->path, times, n_in, options->fps, n_sensors, input_bytes,
                                  &n_out, &frame_time, &resample, error))
    return NULL;
  motion = odori_motion_new (n_sensors, n_out, frame_time, error);
  if (motion == NULL)
    return NULL;
  for (guint s = 0; s < n_sensors; s++)
    odori_motion_set_segment_name (motion, s, ((Sensor *) g_ptr_array_index (p->sensors, s))->name);
  odori_capture_set_units (motion, ODORI_UNIT_CENTIMETERS);
  scale = position_scale (p, options);

  for (guint k = 0; k < n_out; k++)
    {
      double t = resample ? times[0] + k * frame_time : times[MIN (k, n_in - 1)];
      guint j;
      float u = 0;

      if (!resample)
        i = MIN (k, n_in - 1);
      else
        while (i + 1 < n_in && times[i + 1] <= t)
          i++;
      j = MIN (i + 1, n_in - 1);
      if (resample && j != i && times[j] > times[i])
        u = (float) CLAMP ((t - times[i]) / (times[j] - times[i]), 0.0, 1.0);

      for (guint s = 0; s < n_sensors; s++)
        {
          Sensor *sensor = g_ptr_array_index (p->sensors, s);
          OdoriTransform *tr = odori_motion_get (motion, k, s);
          float qa[4], qb[4];

          sensor_rotation (p, sensor, i, order, qa);
          if (u > 0)
            {
              sensor_rotation (p, sensor, j, order, qb);
              odori_quat_slerp (qa, qb, u, tr->rotation);
            }
          else
            memcpy (tr->rotation, qa, sizeof qa);
          for (int c = 0; sensor->use_pos && c < 3; c++)
            {
              double a = row_value (p, i, sensor->pos[c]);
              double b = row_value (p, j, sensor->pos[c]);

              tr->position[c] = (float) ((a + u * (b - a)) * scale);
            }
        }
    }

  g_free (motion->path);
  motion->path = g_strdup (p->path);
  capture = odori_capture_new (ODORI_CAPTURE_SENSOR_CSV, g_steal_pointer (&motion));
  for (guint s = 0; s < n_sensors; s++)
    {
      Sensor *sensor = g_ptr_array_index (p->sensors, s);

      capture->has_position[s] = sensor->use_pos;
      any_rotation = any_rotation || sensor->use_quat || sensor->use_euler;
    }
  capture->has_rotations = any_rotation;
  capture->rotations_local = FALSE;
  capture->n_source_frames = n_in;
  capture->source_duration = times[n_in - 1] - times[0];
  capture->resampled = resample;
  return capture;
}

static OdoriCapture *
load_text (OdoriTextFile            *file,
           const OdoriImportOptions *options,
           GPtrArray                *warnings,
           GError                  **error)
{
  OdoriImportOptions defaults;
  Parser p = { 0 };
  OdoriLineReader reader;
  OdoriCapture *capture = NULL;
  gboolean header = FALSE;
  gsize len;

  if (options == NULL)
    {
      odori_import_options_init (&defaults);
      options = &defaults;
    }
  odori_text_file_get_data (file, &len);
  p.path = odori_text_file_get_path (file);
  p.warnings = warnings;
  p.time_col = -1;
  p.columns = g_array_new (FALSE, FALSE, sizeof (Column));
  p.sensors = g_ptr_array_new_with_free_func (sensor_free);
  p.times = g_array_new (FALSE, FALSE, sizeof (double));
  p.lines = g_array_new (FALSE, FALSE, sizeof (guint));
  p.values = g_array_new (FALSE, FALSE, sizeof (float));

  odori_line_reader_init (&reader, file);
  while (!header && odori_line_reader_next (&reader))
    {
      if (odori_skip_blanks (reader.line, reader.line + reader.len) == reader.line + reader.len)
        continue;
      if (!parse_header (&p, reader.line, reader.len, reader.lineno, error))
        goto out;
      header = TRUE;
    }
  if (!header)
    {
      odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_EMPTY, p.path, 1,
                       _("expected a header line with Quaternion:, Euler: or Position: columns, "
                         "found an empty file"));
      goto out;
    }
  if (!parse_rows (&p, &reader, error))
    goto out;
  if (p.times->len == 0)
    {
      odori_set_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_EMPTY, p.path,
                       reader.lineno,
                       _("no data row after the header"));
      goto out;
    }
  capture = build_capture (&p, len, options, error);

out:
  for (guint c = 0; c < p.columns->len; c++)
    g_free (g_array_index (p.columns, Column, c).name);
  g_array_unref (p.columns);
  g_ptr_array_unref (p.sensors);
  g_array_unref (p.times);
  g_array_unref (p.lines);
  g_array_unref (p.values);
  return capture;
}

/* Decoding: UTF-8 as is; otherwise GB18030 (GBK) before the text layer's CP932. */
static OdoriTextFile *
decode_raw (const char  *display_name,
            const char  *data,
            gsize        len,
            GError     **error)
{
  g_autofree char *utf8 = NULL;
  gsize written = 0;

  if ((len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0) || g_utf8_validate_len (data, len, NULL) ||
      memchr (data, '\0', len) != NULL)
    return odori_text_file_new_from_data (display_name, data, len, error);
  utf8 = g_convert (data, len, "UTF-8", "GB18030", NULL, &written, NULL);
  if (utf8 != NULL)
    return odori_text_file_new_from_data (display_name, utf8, written, error);
  return odori_text_file_new_from_data (display_name, data, len, error);
}

OdoriCapture *
odori_sensor_csv_load_data (const char               *display_name,
                            const char               *data,
                            gsize                     len,
                            const OdoriImportOptions *options,
                            GPtrArray                *warnings,
                            GError                  **error)
{
  g_autoptr(OdoriTextFile) file = NULL;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  file = decode_raw (display_name ? display_name : "(data)", data, len, error);
  if (file == NULL)
    return NULL;
  return load_text (file, options, warnings, error);
}

OdoriCapture *
odori_sensor_csv_load (const char               *path,
                       const OdoriImportOptions *options,
                       GPtrArray                *warnings,
                       GError                  **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GMappedFile) mapped = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  /* The common case, UTF-8, is read in place (mapped) by the text layer. */
  file = odori_text_file_open (path, &local_error);
  if (file != NULL && odori_text_file_get_encoding (file) != ODORI_ENCODING_SHIFT_JIS)
    return load_text (file, options, warnings, error);
  if (file == NULL && !g_error_matches (local_error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_ENCODING))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  g_clear_pointer (&file, odori_text_file_free);
  mapped = odori_mapped_file_new (path, error);
  if (mapped == NULL)
    return NULL;
  return odori_sensor_csv_load_data (path, g_mapped_file_get_contents (mapped),
                                     g_mapped_file_get_length (mapped), options, warnings, error);
}

gboolean
odori_sensor_csv_sniff (const char *data,
                        gsize       len)
{
  const char *p = data;
  const char *end = data + MIN (len, (gsize) 65536);
  const char *eol;
  g_autofree char *line = NULL;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if (end - p >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  /* the first non-empty line */
  for (;;)
    {
      while (p < end && (*p == '\n' || *p == '\r'))
        p++;
      eol = p;
      while (eol < end && *eol != '\n' && *eol != '\r')
        eol++;
      if (odori_skip_blanks (p, eol) != eol || eol >= end)
        break;
      p = eol;
    }
  line = g_ascii_strdown (p, eol - p);
  for (const char *s = line; *s; s++)
    {
      if (s != line && !(s[-1] == ',' || s[-1] == ';' || s[-1] == '\t' || s[-1] == '"' ||
                         s[-1] == ' '))
        continue;
      if (g_str_has_prefix (s, "quaternion:") || g_str_has_prefix (s, "euler:") ||
          g_str_has_prefix (s, "position:"))
        return TRUE;
    }
  return FALSE;
}

/* odori-text.c: the reading half of the text layer under every reader: files opened
 * safely and decoded (UTF-8, Shift_JIS), read line by line, locale-independent numbers
 * both ways (writing text atomically is odori-output.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "odori-text.h"
#include "odori-text-private.h"

G_DEFINE_QUARK (odori-text-error-quark, odori_text_error)

/* Lines already consumed from a mapped file are handed back to the kernel in steps of
 * this size, so that parsing a 200 MB file does not keep 200 MB resident. */
#define RELEASE_STEP (16u << 20)

/* Longest number the parser reads, in characters: more is not a number. */
#define MAX_NUMBER_LEN 1024

/* Files larger than this are refused: the model indexes frames with 32-bit counts and a
 * text motion file of this size would hold more values than anyone captures. */
#define MAX_FILE_SIZE ((gsize) 8 << 30)

struct _OdoriTextFile
{
  char          *path;
  OdoriEncoding  encoding;
  const char    *data;      /* UTF-8 text, BOM removed */
  gsize          len;
  void          *map;       /* mmap'ed file or NULL */
  gsize          map_len;
  char          *owned;     /* decoded or copied buffer or NULL */
};

const char *
odori_encoding_to_string (OdoriEncoding encoding)
{
  switch (encoding)
    {
    case ODORI_ENCODING_UTF8:
      return "utf-8";
    case ODORI_ENCODING_UTF8_BOM:
      return "utf-8-bom";
    case ODORI_ENCODING_SHIFT_JIS:
      return "shift_jis";
    default:
      return "unknown";
    }
}

gboolean
odori_is_ascii (const char *data,
                gsize       len)
{
  const guint64 high = G_GUINT64_CONSTANT (0x8080808080808080);
  gsize i = 0;

  /* Eight bytes at a time, 64 per check: a few GB/s, a tenth of a big file's parse. */
  while (i + 64 <= len)
    {
      guint64 w[8], acc;

      memcpy (w, data + i, sizeof w);
      acc = w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7];
      if (acc & high)
        return FALSE;
      i += 64;
    }
  for (; i < len; i++)
    if ((guchar) data[i] & 0x80)
      return FALSE;
  return TRUE;
}

static gboolean
has_bom (const char *data,
         gsize       len)
{
  return len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0;
}

/* Where the first undecodable CP932 byte sits, for the error message. */
static void
locate_offset (const char *data,
               gsize       offset,
               guint      *line,
               guint      *column)
{
  *line = 1;
  *column = 1;
  for (gsize i = 0; i < offset; i++)
    {
      if (data[i] == '\n')
        {
          (*line)++;
          *column = 1;
        }
      else
        (*column)++;
    }
}

/* No text format Odori reads has NUL bytes, and C strings would end at one: a name
 * "A\0B" would be saved as "A". A NUL means binary data or UTF-16: refuse it. */
static gboolean
report_nul (const char  *data,
            const char  *nul,
            const char  *display_name,
            GError     **error)
{
  guint line, column;

  if (nul == NULL)
    return TRUE;
  locate_offset (data, nul - data, &line, &column);
  g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_ENCODING,
               _("%s:%u: a NUL byte at column %u: not a text file (UTF-16 or binary data?)"),
               display_name, line, column);
  return FALSE;
}

static gboolean
check_no_nul (const char  *data,
              gsize        len,
              const char  *display_name,
              GError     **error)
{
  return report_nul (data, memchr (data, '\0', len), display_name, error);
}

/* Both checks of a file about to be read, in one pass over it instead of two: returns
 * the first NUL byte of DATA or NULL, and sets *ASCII when no byte has its high bit. */
static const char *
scan_nul_ascii (const char *data,
                gsize       len,
                gboolean   *ascii)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 high = G_GUINT64_CONSTANT (0x8080808080808080);
  guint64 acc = 0;
  gsize i = 0;

  while (i + 32 <= len)
    {
      guint64 w[4], zero;

      memcpy (w, data + i, sizeof w);
      acc |= w[0] | w[1] | w[2] | w[3];
      /* (w - 0x01..) & ~w has a high bit set exactly when w has a zero byte */
      zero = ((w[0] - ones) & ~w[0]) | ((w[1] - ones) & ~w[1]) |
             ((w[2] - ones) & ~w[2]) | ((w[3] - ones) & ~w[3]);
      if (G_UNLIKELY (zero & high))
        return memchr (data + i, '\0', 32);
      i += 32;
    }
  for (; i < len; i++)
    {
      if (data[i] == '\0')
        return data + i;
      acc |= (guchar) data[i];
    }
  *ascii = (acc & high) == 0;
  return NULL;
}

char *
odori_text_decode (const char     *data,
                   gsize           len,
                   const char     *display_name,
                   OdoriEncoding  *encoding,
                   gsize          *out_len,
                   GError        **error)
{
  OdoriEncoding enc = ODORI_ENCODING_UTF8;
  g_autoptr(GError) local_error = NULL;
  gsize bytes_read = 0;
  gsize written = 0;
  char *result;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (display_name == NULL)
    display_name = "(data)";

  if (!check_no_nul (data, len, display_name, error))
    return NULL;

  if (has_bom (data, len))
    {
      data += 3;
      len -= 3;
      enc = ODORI_ENCODING_UTF8_BOM;
    }

  if (odori_is_ascii (data, len) || g_utf8_validate_len (data, len, NULL))
    {
      result = g_malloc (len + 1);
      memcpy (result, data, len);
      result[len] = '\0';
      if (out_len)
        *out_len = len;
      if (encoding)
        *encoding = enc;
      return result;
    }

  if (enc == ODORI_ENCODING_UTF8_BOM)
    {
      const char *bad = NULL;
      guint line, column;

      g_utf8_validate_len (data, len, &bad);
      locate_offset (data, bad - data, &line, &column);
      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_ENCODING,
                   _("%s:%u: invalid UTF-8 at column %u (the file starts with a UTF-8 byte order mark)"),
                   display_name, line, column);
      return NULL;
    }

  result = g_convert (data, len, "UTF-8", "CP932", &bytes_read, &written, &local_error);
  if (result == NULL)
    {
      guint line, column;

      locate_offset (data, MIN (bytes_read, len), &line, &column);
      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_ENCODING,
                   _("%s:%u: text is neither UTF-8 nor Shift_JIS (invalid byte at column %u)"),
                   display_name, line, column);
      return NULL;
    }

  if (out_len)
    *out_len = written;
  if (encoding)
    *encoding = ODORI_ENCODING_SHIFT_JIS;
  return result;
}

char *
odori_text_encode (const char     *utf8,
                   gssize          len,
                   OdoriEncoding   encoding,
                   gsize          *out_len,
                   GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  gsize written = 0;
  char *result;

  g_return_val_if_fail (utf8 != NULL, NULL);

  if (len < 0)
    len = strlen (utf8);

  if (encoding != ODORI_ENCODING_SHIFT_JIS)
    {
      gsize extra = encoding == ODORI_ENCODING_UTF8_BOM ? 3 : 0;

      result = g_malloc (len + extra + 1);
      memcpy (result, "\xEF\xBB\xBF", extra);
      memcpy (result + extra, utf8, len);
      result[len + extra] = '\0';
      if (out_len)
        *out_len = len + extra;
      return result;
    }

  result = g_convert (utf8, len, "CP932", "UTF-8", NULL, &written, &local_error);
  if (result == NULL)
    {
      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_UNMAPPABLE,
                   _("text cannot be written in Shift_JIS: %s"), local_error->message);
      return NULL;
    }
  if (out_len)
    *out_len = written;
  return result;
}

typedef struct
{
  const char *data;
  gsize       len;
  const char *nul;
  gboolean    ascii;
} ScanPart;

static gpointer
scan_part (gpointer data)
{
  ScanPart *part = data;

  part->ascii = FALSE;
  part->nul = scan_nul_ascii (part->data, part->len, &part->ascii);
  return NULL;
}

/* scan_nul_ascii() on every core for big files: the first touch of a mapped file's pages
 * is most of its cost, and it divides among threads. */
static const char *
scan_nul_ascii_parallel (const char *data,
                         gsize       len,
                         gboolean   *ascii)
{
  guint n = odori_text_load_threads (len);
  g_autofree ScanPart *parts = NULL;
  gsize step;

  if (n < 2 || len < n * 64)
    return scan_nul_ascii (data, len, ascii);

  parts = g_new0 (ScanPart, n);
  step = len / n;
  for (guint t = 0; t < n; t++)
    {
      parts[t].data = data + t * step;
      parts[t].len = t + 1 < n ? step : len - t * step;
    }
  odori_run_parallel (scan_part, parts, sizeof *parts, n);
  *ascii = TRUE;
  for (guint t = 0; t < n; t++)
    {
      if (parts[t].nul != NULL)
        return parts[t].nul;
      *ascii = *ascii && parts[t].ascii;
    }
  return NULL;
}

static OdoriTextFile *
text_file_new (const char *path)
{
  OdoriTextFile *file = g_new0 (OdoriTextFile, 1);

  file->path = g_strdup (path);
  return file;
}

/* Sets file->data from RAW, decoding if needed. RAW stays owned by the caller (the
 * mapping) when the text is UTF-8 already. */
static gboolean
text_file_take_raw (OdoriTextFile *file,
                    const char    *raw,
                    gsize          len,
                    GError       **error)
{
  const char *text = raw;
  gsize text_len = len;
  gboolean ascii = FALSE;

  file->encoding = ODORI_ENCODING_UTF8;
  if (has_bom (raw, len))
    {
      text += 3;
      text_len -= 3;
      file->encoding = ODORI_ENCODING_UTF8_BOM;
    }

  /* The BOM has no NUL: scanning the text after it checks the whole file. */
  if (!report_nul (raw, scan_nul_ascii_parallel (text, text_len, &ascii), file->path, error))
    return FALSE;

  if (ascii || g_utf8_validate_len (text, text_len, NULL))
    {
      file->data = text;
      file->len = text_len;
      return TRUE;
    }

  file->owned = odori_text_decode (raw, len, file->path, &file->encoding, &file->len, error);
  if (file->owned == NULL)
    return FALSE;
  file->data = file->owned;
  return TRUE;
}

int
odori_open_regular_file (const char  *path,
                         GError     **error)
{
  struct stat st;
  int fd, flags;

  g_return_val_if_fail (path != NULL, -1);

  /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. */
  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO, _("%s: cannot open: %s"), path,
                   g_strerror (saved_errno));
      return -1;
    }
  if (fstat (fd, &st) != 0)
    {
      int saved_errno = errno;

      close (fd);
      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO, _("%s: cannot read: %s"), path,
                   g_strerror (saved_errno));
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      if (S_ISDIR (st.st_mode))
        g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO, _("%s: a folder, not a file"),
                     path);
      else if (S_ISFIFO (st.st_mode))
        g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO,
                     _("%s: a pipe (FIFO), not a regular file; Odori reads files only"), path);
      else
        g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO,
                     _("%s: not a regular file (a device or a socket); Odori reads files only"),
                     path);
      return -1;
    }
  flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

GMappedFile *
odori_mapped_file_new (const char  *path,
                       GError     **error)
{
  GMappedFile *mapped;
  int fd = odori_open_regular_file (path, error);

  if (fd < 0)
    return NULL;
  mapped = g_mapped_file_new_from_fd (fd, FALSE, error);
  close (fd);
  return mapped;
}

OdoriTextFile *
odori_text_file_open (const char  *path,
                      GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  fd = odori_open_regular_file (path, error);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0)
    {
      int saved_errno = errno;

      close (fd);
      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO, _("%s: cannot read: %s"), path,
                   g_strerror (saved_errno));
      return NULL;
    }

  file = text_file_new (path);

  if ((guint64) st.st_size > MAX_FILE_SIZE)
    {
      close (fd);
      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_TOO_LARGE,
                   _("%s: file too large (%" PRIu64 " bytes)"), path, (guint64) st.st_size);
      return NULL;
    }

  if (st.st_size == 0)
    {
      close (fd);
      file->data = "";
      file->len = 0;
      return g_steal_pointer (&file);
    }

  file->map_len = st.st_size;
  file->map = mmap (NULL, file->map_len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  close (fd);
  if (file->map == MAP_FAILED)
    {
      int saved_errno = errno;

      file->map = NULL;
      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO,
                   _("%s: cannot read: %s"), path, g_strerror (saved_errno));
      return NULL;
    }
  madvise (file->map, file->map_len, MADV_SEQUENTIAL);

  if (!text_file_take_raw (file, file->map, file->map_len, error))
    return NULL;

  if (file->owned != NULL)
    {
      munmap (file->map, file->map_len);
      file->map = NULL;
    }

  return g_steal_pointer (&file);
}

OdoriTextFile *
odori_text_file_new_from_data (const char  *display_name,
                               const char  *data,
                               gsize        len,
                               GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  g_autofree char *copy = NULL;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  file = text_file_new (display_name ? display_name : "(data)");
  copy = g_malloc (len + 1);
  if (len > 0)
    memcpy (copy, data, len);
  copy[len] = '\0';
  if (!text_file_take_raw (file, copy, len, error))
    return NULL;
  if (file->owned == NULL)
    file->owned = g_steal_pointer (&copy);
  return g_steal_pointer (&file);
}

void
odori_text_file_free (OdoriTextFile *file)
{
  if (file == NULL)
    return;
  if (file->map != NULL)
    munmap (file->map, file->map_len);
  g_free (file->owned);
  g_free (file->path);
  g_free (file);
}

const char *
odori_text_file_get_path (OdoriTextFile *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  return file->path;
}

OdoriEncoding
odori_text_file_get_encoding (OdoriTextFile *file)
{
  g_return_val_if_fail (file != NULL, ODORI_ENCODING_UTF8);
  return file->encoding;
}

const char *
odori_text_file_get_data (OdoriTextFile *file,
                          gsize         *len)
{
  g_return_val_if_fail (file != NULL, NULL);
  if (len)
    *len = file->len;
  return file->data;
}

/* Line reader */

/* Old Mac files end lines with a lone CR. The first line end decides: a CR not followed
 * by LF before any LF means CR line ends for the whole file; otherwise lines end at LF
 * and one CR before it is dropped. One memchr per line instead of two. */
static gboolean
text_file_cr_only (OdoriTextFile *file)
{
  const char *nl = memchr (file->data, '\n', file->len);
  const char *cr = memchr (file->data, '\r', nl ? (gsize) (nl - file->data) : file->len);

  return cr != NULL && cr + 1 != nl;
}

void
odori_line_reader_init (OdoriLineReader *reader,
                        OdoriTextFile   *file)
{
  g_return_if_fail (reader != NULL);
  g_return_if_fail (file != NULL);

  memset (reader, 0, sizeof *reader);
  reader->file = file;
  reader->cur = file->data;
  reader->end = file->data + file->len;
  reader->released = file->data;
  reader->cr_only = text_file_cr_only (file);
}

void
odori_line_reader_init_range (OdoriLineReader *reader,
                              OdoriTextFile   *file,
                              gsize            from,
                              gsize            to,
                              guint            lineno)
{
  g_return_if_fail (from <= to && to <= file->len);

  odori_line_reader_init (reader, file);
  reader->cur = file->data + from;
  reader->end = file->data + to;
  reader->released = reader->cur;
  reader->lineno = lineno > 0 ? lineno - 1 : 0;
}

gsize
odori_line_reader_offset (OdoriLineReader *reader)
{
  return reader->cur - reader->file->data;
}

guint64
odori_line_reader_count_lines (OdoriLineReader *reader)
{
  char eol = reader->cr_only ? '\r' : '\n';
  const char *s = reader->cur;
  guint64 n = 0;

  while (s < reader->end && (s = memchr (s, eol, reader->end - s)) != NULL)
    {
      n++;
      s++;
    }
  /* the last line may have no end */
  if (reader->end > reader->cur && reader->end[-1] != eol)
    n++;
  return n;
}

gsize
odori_line_reader_line_start (OdoriLineReader *reader,
                              gsize            offset)
{
  const char *data = reader->file->data;
  const char *s = data + offset;
  const char *hit;

  if (s <= reader->cur)
    return reader->cur - data;
  if (s >= reader->end)
    return reader->end - data;
  if (s[-1] == (reader->cr_only ? '\r' : '\n'))
    return offset;
  hit = memchr (s, reader->cr_only ? '\r' : '\n', reader->end - s);
  return hit != NULL ? (gsize) (hit + 1 - data) : (gsize) (reader->end - data);
}

guint
odori_text_file_line_at (OdoriTextFile *file,
                         gsize          offset)
{
  char eol = text_file_cr_only (file) ? '\r' : '\n';
  const char *s = file->data;
  const char *end = file->data + MIN (offset, file->len);
  guint n = 1;

  while ((s = memchr (s, eol, end - s)) != NULL)
    {
      n++;
      s++;
    }
  return n;
}

void
odori_run_parallel (GThreadFunc func,
                    gpointer    items,
                    gsize       item_size,
                    guint       n_items)
{
  g_autofree GThread **threads = g_new0 (GThread *, MAX (n_items, 1));
  char *item = items;

  for (guint t = 1; t < n_items; t++)
    threads[t] = g_thread_try_new ("odori-load", func, item + t * item_size, NULL);
  if (n_items > 0)
    func (item);
  for (guint t = 1; t < n_items; t++)
    {
      if (threads[t] != NULL)
        g_thread_join (threads[t]);
      else
        func (item + t * item_size);
    }
}

static gint test_load_threads = 0;
static gint parallel_loads = 0;

guint
odori_text_get_test_parallel_loads (void)
{
  return g_atomic_int_get (&parallel_loads);
}

void
odori_text_count_parallel_load (void)
{
  g_atomic_int_inc (&parallel_loads);
}

void
odori_text_set_test_load_threads (guint n)
{
  g_atomic_int_set (&test_load_threads, (gint) MIN (n, 64));
}

guint
odori_text_load_threads (gsize len)
{
  /* Below this a thread's start costs more than it saves. */
  const gsize min_len = 1u << 20;
  static gint forced = -1;
  gint n = g_atomic_int_get (&test_load_threads);

  if (n > 0)
    return n;
  n = g_atomic_int_get (&forced);

  if (n < 0)
    {
      const char *env = g_getenv ("ODORI_LOAD_THREADS");
      guint64 v = 0;

      n = 0;
      if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, 64, &v, NULL))
        n = (gint) v;
      g_atomic_int_set (&forced, n);
    }
  if (n > 0)
    return n;
  if (len < min_len)
    return 1;
  return CLAMP (g_get_num_processors (), 1, 8);
}

static void
release_consumed (OdoriLineReader *reader)
{
  OdoriTextFile *file = reader->file;
  gsize page = 4096;
  const char *map = file->map;
  const char *from, *to;

  if (map == NULL)
    return;

  /* Keep the current line mapped: release only whole pages before it. */
  from = map + (((reader->released - map) + page - 1) / page) * page;
  to = map + ((reader->line - map) / page) * page;
  if (to > from)
    madvise ((void *) from, to - from, MADV_DONTNEED);
  reader->released = reader->line;
}

gboolean
odori_line_reader_next (OdoriLineReader *reader)
{
  const char *cur = reader->cur;
  const char *end = reader->end;
  const char *eol;

  if (cur >= end)
    {
      reader->line = end;
      reader->len = 0;
      return FALSE;
    }

  eol = memchr (cur, reader->cr_only ? '\r' : '\n', end - cur);
  reader->line = cur;
  reader->lineno++;
  if (eol == NULL)
    {
      reader->len = end - cur;
      reader->cur = end;
    }
  else
    {
      reader->len = eol - cur;
      reader->cur = eol + 1;
    }
  if (!reader->cr_only && reader->len > 0 && cur[reader->len - 1] == '\r')
    reader->len--;

  if (G_UNLIKELY ((gsize) (reader->line - reader->released) > RELEASE_STEP))
    release_consumed (reader);

  return TRUE;
}

gsize
odori_line_reader_remaining (OdoriLineReader *reader)
{
  return reader->end - reader->cur;
}

/* Numbers */

static const double exact_pow10[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static inline gboolean
is_digit (char c)
{
  return (unsigned) (c - '0') < 10u;
}

/* The slow path of odori_parse_double() for the number [START, S): g_ascii_strtod needs a
 * NUL-terminated copy. Kept out of line, so that the fast path needs no stack buffer and
 * saves fewer registers. */
static G_GNUC_NO_INLINE gboolean
parse_double_slow (const char **p,
                   const char  *start,
                   const char  *s,
                   double      *out)
{
  char buf[128];
  gsize n = s - start;
  double v;

  if (n < sizeof buf)
    {
      memcpy (buf, start, n);
      buf[n] = '\0';
      v = g_ascii_strtod (buf, NULL);
    }
  else
    {
      g_autofree char *copy = g_strndup (start, n);
      v = g_ascii_strtod (copy, NULL);
    }
  if (!isfinite (v))
    return FALSE;
  *out = v;
  *p = s;
  return TRUE;
}

gboolean
odori_parse_double (const char **p,
                    const char  *end,
                    double      *out)
{
  const char *s = *p;
  const char *start = s;
  const char *digits_start;
  gboolean negative = FALSE;
  guint64 mantissa = 0;
  int n_int, n_frac = 0;
  int exp10 = 0;

  if (s < end && (*s == '-' || *s == '+'))
    {
      negative = *s == '-';
      s++;
    }

  /* All digits go into one integer; more than 19 of them (which may have overflowed)
   * take the slow path below. */
  digits_start = s;
  while (s < end && is_digit (*s))
    mantissa = mantissa * 10 + (guint64) (*s++ - '0');
  n_int = s - digits_start;
  if (s < end && *s == '.')
    {
      const char *frac_start = ++s;

      while (s < end && is_digit (*s))
        mantissa = mantissa * 10 + (guint64) (*s++ - '0');
      n_frac = s - frac_start;
    }
  if (n_int + n_frac == 0)
    return FALSE;

  if (s < end && (*s == 'e' || *s == 'E'))
    {
      const char *e = s + 1;
      gboolean eneg = FALSE;
      int ev = 0;

      if (e < end && (*e == '-' || *e == '+'))
        {
          eneg = *e == '-';
          e++;
        }
      if (e < end && is_digit (*e))
        {
          while (e < end && is_digit (*e))
            {
              if (ev < 100000)
                ev = ev * 10 + (*e - '0');
              e++;
            }
          exp10 = eneg ? -ev : ev;
          s = e;
        }
      /* else: "1e" is the number 1 followed by garbage, as strtod reads it */
    }
  exp10 -= n_frac;

  /* Clinger's fast path: an exact mantissa below 2^53 and an exactly representable
   * power of ten give the correctly rounded result with one operation. */
  if (n_int + n_frac <= 19 && mantissa <= (G_GUINT64_CONSTANT (1) << 53) &&
      exp10 >= -22 && exp10 <= 22)
    {
      double v = (double) mantissa;

      if (exp10 < 0)
        v /= exact_pow10[-exp10];
      else
        v *= exact_pow10[exp10];
      *out = negative ? -v : v;
      *p = s;
      return TRUE;
    }

  /* Rare: long mantissas or big exponents. No number in a motion file needs more than
   * a few dozen characters: a longer one is refused rather than copied for strtod
   * (a 100 MB line of digits would be copied whole, and read digit by digit again). */
  if (s - start > MAX_NUMBER_LEN)
    return FALSE;
  return parse_double_slow (p, start, s, out);
}

static const guint64 pow10_u64[] = {
  1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
  100000000ull, 1000000000ull,
};

const char *
odori_line_reader_limit (OdoriLineReader *reader)
{
  return reader->file->data + reader->file->len;
}

gboolean
odori_parse_int (const char **p,
                 const char  *end,
                 gint64      *out)
{
  const char *s = *p;
  gboolean negative = FALSE;
  guint64 v = 0;

  if (s < end && (*s == '-' || *s == '+'))
    {
      negative = *s == '-';
      s++;
    }
  if (s >= end || !is_digit (*s))
    return FALSE;
  while (s < end && is_digit (*s))
    {
      if (v > (G_MAXINT64 - 9) / 10)
        return FALSE;
      v = v * 10 + (guint64) (*s - '0');
      s++;
    }
  *out = negative ? -(gint64) v : (gint64) v;
  *p = s;
  return TRUE;
}

gboolean
odori_looks_non_finite (const char *p,
                        const char *end)
{
  if (p < end && (*p == '-' || *p == '+'))
    p++;
  if (end - p >= 3 && (g_ascii_strncasecmp (p, "nan", 3) == 0 ||
                       g_ascii_strncasecmp (p, "inf", 3) == 0))
    return TRUE;
  return FALSE;
}

gsize
odori_next_token (const char **p,
                  const char  *end,
                  const char **token)
{
  const char *s = odori_skip_blanks (*p, end);
  const char *t = s;

  while (s < end && odori_blank_len (s, end) == 0)
    s++;
  *token = t;
  *p = s;
  return s - t;
}


gsize
odori_format_fixed (char   *buf,
                    double  x,
                    guint   decimals)
{
  char tmp[32];
  gsize n = 0;
  gsize len = 0;
  guint64 scaled, ipart, fpart;
  gboolean negative;

  if (decimals > 9)
    decimals = 9;
  if (!isfinite (x))
    x = 0;

  negative = x < 0;
  if (negative)
    x = -x;

  /* Beyond 2^63 / 10^decimals the scaled integer would overflow: printf is rare here. */
  if (x * (double) pow10_u64[decimals] >= 9.0e18)
    {
      len = g_snprintf (buf, 40, "%.*f", (int) decimals, negative ? -x : x);
      /* %f honours the locale's decimal point; put '.' back. */
      for (gsize i = 0; i < len; i++)
        if (buf[i] == ',')
          buf[i] = '.';
      return MIN (len, 39);
    }

  scaled = (guint64) llround (x * (double) pow10_u64[decimals]);
  ipart = scaled / pow10_u64[decimals];
  fpart = scaled % pow10_u64[decimals];

  if (negative && scaled != 0)
    buf[len++] = '-';

  do
    {
      tmp[n++] = (char) ('0' + ipart % 10);
      ipart /= 10;
    }
  while (ipart != 0);
  while (n > 0)
    buf[len++] = tmp[--n];

  if (decimals > 0)
    {
      buf[len++] = '.';
      for (guint i = decimals; i > 0; i--)
        {
          buf[len + i - 1] = (char) ('0' + fpart % 10);
          fpart /= 10;
        }
      len += decimals;
    }
  return len;
}

char *
odori_format_double (double x)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (x))
    x = 0;
  /* The fewest significant digits (15 to 17) that read back to exactly X. */
  for (int digits = 15; digits <= 17; digits++)
    {
      char fmt[8];

      g_snprintf (fmt, sizeof fmt, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, fmt, x);
      if (g_ascii_strtod (buf, NULL) == x)
        break;
    }
  return g_strdup (buf);
}

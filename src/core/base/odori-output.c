/* odori-output.c: text written atomically in a file's encoding (OdoriOutput): a
 * temporary file beside the target, fsync, rename; or an output into memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "odori-text.h"
#include "odori-text-private.h"

#define OUTPUT_BUFFER (1u << 20)

struct _OdoriOutput
{
  char          *path;      /* target, NULL for memory */
  char          *tmp_path;
  int            fd;
  OdoriEncoding  encoding;
  GByteArray    *buffer;
  GError        *error;     /* first error; later writes are dropped */
  gsize          written;
  gsize          fail_after;
  GBytes        *bytes;     /* memory output after commit */
  gboolean       done;
};

/* odori_output_set_test_fail_after(): the fail_after of every new file output. */
static gsize test_fail_after = G_MAXSIZE;

void
odori_output_set_test_fail_after (gsize limit)
{
  test_fail_after = limit;
}

static OdoriOutput *
output_alloc (OdoriEncoding encoding)
{
  OdoriOutput *out = g_new0 (OdoriOutput, 1);

  out->fd = -1;
  out->encoding = encoding;
  out->buffer = g_byte_array_sized_new (OUTPUT_BUFFER);
  out->fail_after = G_MAXSIZE;
  if (encoding == ODORI_ENCODING_UTF8_BOM)
    g_byte_array_append (out->buffer, (const guint8 *) "\xEF\xBB\xBF", 3);
  return out;
}

OdoriOutput *
odori_output_new (const char     *path,
                  OdoriEncoding   encoding,
                  GError        **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmpl = NULL;
  OdoriOutput *out;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  tmpl = g_strdup_printf ("%s%s.%s.XXXXXX", dir, G_DIR_SEPARATOR_S, base);

  fd = g_mkstemp_full (tmpl, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO,
                   _("%s: cannot write: %s"), path, g_strerror (saved_errno));
      return NULL;
    }

  /* g_mkstemp creates 0600; give the file the usual permissions under the umask. */
  {
    mode_t mask = umask (0);
    umask (mask);
    fchmod (fd, 0666 & ~mask);
  }

  out = output_alloc (encoding);
  out->path = g_strdup (path);
  out->tmp_path = g_steal_pointer (&tmpl);
  out->fd = fd;
  out->fail_after = test_fail_after;
  return out;
}

OdoriOutput *
odori_output_new_memory (OdoriEncoding encoding)
{
  return output_alloc (encoding);
}

static void
output_fail (OdoriOutput *out,
             int          err)
{
  if (out->error == NULL)
    g_set_error (&out->error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO,
                 _("%s: cannot write: %s"), out->path ? out->path : "(memory)", g_strerror (err));
}

static void
output_flush (OdoriOutput *out)
{
  const guint8 *p = out->buffer->data;
  gsize left = out->buffer->len;

  if (out->fd < 0 || out->error != NULL)
    return;

  while (left > 0)
    {
      gsize chunk = left;
      gssize n;

      if (out->written + chunk > out->fail_after)
        chunk = out->fail_after - out->written;
      if (chunk == 0)
        {
          output_fail (out, ENOSPC);
          break;
        }
      n = write (out->fd, p, chunk);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          output_fail (out, errno);
          break;
        }
      p += n;
      left -= n;
      out->written += n;
    }
  g_byte_array_set_size (out->buffer, 0);
}

void
odori_output_write (OdoriOutput *out,
                    const char  *data,
                    gsize        len)
{
  g_return_if_fail (out != NULL);

  if (out->error != NULL)
    return;
  g_byte_array_append (out->buffer, (const guint8 *) data, len);
  if (out->fd >= 0 && out->buffer->len >= OUTPUT_BUFFER)
    output_flush (out);
}

void
odori_output_char (OdoriOutput *out,
                   char         c)
{
  odori_output_write (out, &c, 1);
}

void
odori_output_text (OdoriOutput *out,
                   const char  *utf8)
{
  g_autofree char *converted = NULL;
  gsize len = 0;

  g_return_if_fail (out != NULL);
  g_return_if_fail (utf8 != NULL);

  if (out->encoding != ODORI_ENCODING_SHIFT_JIS || odori_is_ascii (utf8, strlen (utf8)))
    {
      odori_output_write (out, utf8, strlen (utf8));
      return;
    }

  converted = odori_text_encode (utf8, -1, ODORI_ENCODING_SHIFT_JIS, &len,
                                 out->error ? NULL : &out->error);
  if (converted != NULL)
    odori_output_write (out, converted, len);
}

void
odori_output_printf (OdoriOutput *out,
                     const char  *format,
                     ...)
{
  g_autofree char *s = NULL;
  va_list args;

  va_start (args, format);
  s = g_strdup_vprintf (format, args);
  va_end (args);
  odori_output_text (out, s);
}

void
odori_output_fixed (OdoriOutput *out,
                    double       x,
                    guint        decimals)
{
  char buf[48];
  gsize len = odori_format_fixed (buf, x, decimals);

  odori_output_write (out, buf, len);
}

void
odori_output_set_fail_after (OdoriOutput *out,
                             gsize        limit)
{
  g_return_if_fail (out != NULL);
  out->fail_after = limit;
}

gboolean
odori_output_commit (OdoriOutput  *out,
                     GError      **error)
{
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (!out->done, FALSE);

  out->done = TRUE;

  if (out->fd < 0)
    {
      if (out->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&out->error));
          return FALSE;
        }
      out->bytes = g_byte_array_free_to_bytes (g_steal_pointer (&out->buffer));
      return TRUE;
    }

  output_flush (out);
  if (out->error == NULL && fsync (out->fd) != 0)
    output_fail (out, errno);
  if (close (out->fd) != 0 && out->error == NULL)
    output_fail (out, errno);
  out->fd = -1;
  if (out->error == NULL && g_rename (out->tmp_path, out->path) != 0)
    output_fail (out, errno);

  if (out->error != NULL)
    {
      g_unlink (out->tmp_path);
      g_propagate_error (error, g_steal_pointer (&out->error));
      return FALSE;
    }
  return TRUE;
}

void
odori_output_abort (OdoriOutput *out)
{
  g_return_if_fail (out != NULL);

  if (out->done)
    return;
  out->done = TRUE;
  if (out->fd >= 0)
    {
      close (out->fd);
      out->fd = -1;
      g_unlink (out->tmp_path);
    }
}

GBytes *
odori_output_steal_bytes (OdoriOutput *out)
{
  g_return_val_if_fail (out != NULL, NULL);
  return g_steal_pointer (&out->bytes);
}

void
odori_output_free (OdoriOutput *out)
{
  if (out == NULL)
    return;
  if (!out->done)
    odori_output_abort (out);
  if (out->buffer != NULL)
    g_byte_array_unref (out->buffer);
  g_clear_pointer (&out->bytes, g_bytes_unref);
  g_clear_error (&out->error);
  g_free (out->path);
  g_free (out->tmp_path);
  g_free (out);
}

void
odori_output_write_text_file (OdoriOutput         *out,
                              OdoriEncoding        encoding,
                              OdoriOutputWriteFunc write,
                              gpointer             data)
{
  g_autoptr(OdoriOutput) memory = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *text;
  gsize       len;

  g_return_if_fail (out != NULL);
  g_return_if_fail (write != NULL);

  if (encoding != ODORI_ENCODING_SHIFT_JIS)
    {
      write (data, out);
      return;
    }
  memory = odori_output_new_memory (encoding);
  write (data, memory);
  if (!odori_output_commit (memory, NULL))
    {
      write (data, out); /* for odori_output_commit (out) to report the error */
      return;
    }
  bytes = odori_output_steal_bytes (memory);
  text = g_bytes_get_data (bytes, &len);
  if (len > 0 && !odori_is_ascii (text, len) && g_utf8_validate_len (text, len, NULL))
    odori_output_text (out, "# \u30B7\u30D5\u30C8JIS\n");
  odori_output_write (out, len > 0 ? text : "", len);
}

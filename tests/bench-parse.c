/* bench-parse.c: parsing and writing throughput and peak memory, next to baselines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-parse gen-bva FILE SIZE        write a deterministic BVA: SIZE is megabytes
 *   bench-parse gen-bvh FILE SIZE        ("200") or a frame count ("432000f")
 *
 * Reading (FILE is read and parsed REPS times in this process, default 1):
 *   bench-parse cat FILE [REPS]          read(2) in 128 KiB blocks, what `cat >/dev/null` does
 *   bench-parse newline FILE [REPS]      count newlines (memchr over 1 MiB blocks, as wc -l)
 *   bench-parse limit FILE [REPS]        the hand-rolled limit: every token read as a float
 *                                        by the simplest loop (no validation, no model),
 *                                        streamed through 1 MiB blocks
 *   bench-parse strtod FILE [REPS]       the naive C program: strtod over every number
 *   bench-parse odori FILE [REPS]        Odori's reader into its model (odori_format_load_motion:
 *                                        BVA and BVH streamed through one buffer a thread)
 *   bench-parse mapped FILE [REPS]       the same parse from the whole file mapped in memory
 *                                        (odori_text_file_open, then odori_*_load_text): how
 *                                        every load went before the readers streamed
 *
 * Writing (FILE is loaded once untimed; OUT is written REPS times):
 *   bench-parse write-bva FILE OUT [REPS]   odori_bva_save of FILE's model
 *   bench-parse write-bvh FILE OUT [REPS]   odori_bvh_save of FILE's model (FILE a BVH)
 *   bench-parse printf FILE OUT [REPS]      fprintf "%.6f" of FILE's numbers, line by line
 *                                           as in FILE, then fflush + fsync (Odori's writers
 *                                           fsync too, the output being atomic)
 *   bench-parse copy FILE OUT [REPS]        the floor: FILE's bytes written with write(2)
 *                                           in 1 MiB blocks, then fsync
 *
 * Machine:
 *   bench-parse pages FILE                  ms per 100 MiB to touch fresh memory, FILE's
 *                                           mapped pages, and to read FILE
 *
 * Each measuring mode prints one line "mode bytes seconds MB/s maxrss_kb count", where
 * seconds is the median of the REPS repetitions, bytes the file read (or written), maxrss
 * the process's peak resident set (VmHWM: run each mode in its own process) and count the
 * numbers read (lines for newline, bytes for cat and copy, segment-frames for odori and
 * the writers).
 */
#include "config.h"

#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-format.h"
#include "odori-text.h"

static const char *names[] = {
  "Hips", "Chest", "Neck", "Head", "LeftCollar", "LeftUpArm", "LeftLowArm", "LeftHand",
  "RightCollar", "RightUpArm", "RightLowArm", "RightHand", "LeftUpLeg", "LeftLowLeg",
  "LeftFoot", "RightUpLeg", "RightLowLeg", "RightFoot",
};
#define N_SEG G_N_ELEMENTS (names)
#define MAX_REPS 1000

static double
value (guint frame,
       guint seg,
       guint k)
{
  return 40.0 * sin (frame * 0.013 + seg * 0.7 + k * 1.3) + (k < 3 ? 10.0 * seg : 0.0);
}

/* "200" is megabytes (bytes_per_frame each); "432000f" is a frame count. */
static guint
frames_for (const char *size,
            double      bytes_per_frame)
{
  char *end;
  guint64 n = g_ascii_strtoull (size, &end, 10);

  if (*end == 'f')
    return (guint) n;
  return (guint) (n * 1000000 / bytes_per_frame);
}

static int
gen_bva (const char *path,
         const char *size)
{
  /* one frame line of 9 values is about 95 bytes */
  guint frames = frames_for (size, N_SEG * 95.0);
  g_autoptr(GError) error = NULL;
  OdoriOutput *out = odori_output_new (path, ODORI_ENCODING_UTF8, &error);

  if (out == NULL)
    g_error ("%s", error->message);
  for (guint s = 0; s < N_SEG; s++)
    {
      odori_output_printf (out, "Segment:\t%s\nFrames:\t%u\nFrame Time:\t0.008333\n", names[s], frames);
      odori_output_text (out, "XTRAN\tYTRAN\tZTRAN\tXROT\tYROT\tZROT\tXSCALE\tYSCALE\tZSCALE\n"
                              "INCHES\tINCHES\tINCHES\tDEGREES\tDEGREES\tDEGREES\tPERCENT\tPERCENT\tPERCENT\n");
      for (guint f = 0; f < frames; f++)
        {
          for (guint k = 0; k < 6; k++)
            {
              odori_output_fixed (out, value (f, s, k), 6);
              odori_output_char (out, ' ');
            }
          odori_output_text (out, "100.000000 100.000000 100.000000\n");
        }
    }
  if (!odori_output_commit (out, &error))
    g_error ("%s", error->message);
  odori_output_free (out);
  return 0;
}

static int
gen_bvh (const char *path,
         const char *size)
{
  /* 18 joints: root 6 channels, others 3: 57 values of ~10 bytes a frame */
  guint frames = frames_for (size, 570.0);
  g_autoptr(GError) error = NULL;
  OdoriOutput *out = odori_output_new (path, ODORI_ENCODING_UTF8, &error);
  guint n_values = 6 + 3 * (N_SEG - 1);

  if (out == NULL)
    g_error ("%s", error->message);
  odori_output_text (out, "HIERARCHY\n");
  /* a simple chain keeps the generator short; the reader does the same work per joint */
  for (guint s = 0; s < N_SEG; s++)
    {
      odori_output_printf (out, "%*s%s %s\n%*s{\n", (int) s, "", s == 0 ? "ROOT" : "JOINT", names[s], (int) s, "");
      odori_output_printf (out, "%*s  OFFSET 0.000000 %u.000000 0.000000\n", (int) s, "", s == 0 ? 0 : 5);
      if (s == 0)
        odori_output_printf (out, "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n");
      else
        odori_output_printf (out, "%*s  CHANNELS 3 Zrotation Xrotation Yrotation\n", (int) s, "");
    }
  odori_output_printf (out, "%*sEnd Site\n%*s{\n%*s  OFFSET 0.000000 3.000000 0.000000\n%*s}\n",
                       (int) N_SEG, "", (int) N_SEG, "", (int) N_SEG, "", (int) N_SEG, "");
  for (guint s = N_SEG; s > 0; s--)
    odori_output_printf (out, "%*s}\n", (int) s - 1, "");
  odori_output_printf (out, "MOTION\nFrames: %u\nFrame Time: 0.008333\n", frames);
  for (guint f = 0; f < frames; f++)
    {
      for (guint v = 0; v < n_values; v++)
        {
          odori_output_fixed (out, value (f, v / 3, v % 3), 6);
          odori_output_char (out, v + 1 < n_values ? ' ' : '\n');
        }
    }
  if (!odori_output_commit (out, &error))
    g_error ("%s", error->message);
  odori_output_free (out);
  return 0;
}

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* VmHWM: the peak of this process image alone (ru_maxrss would also count the parent's
 * memory at fork time, before exec). */
static long
maxrss_kb (void)
{
  g_autofree char *status = NULL;
  struct rusage ru;
  const char *hwm;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL) &&
      (hwm = strstr (status, "VmHWM:")) != NULL)
    return atol (hwm + 6);
  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

static gsize
file_size (const char *path)
{
  struct stat st;

  if (stat (path, &st) != 0)
    g_error ("cannot stat %s", path);
  return st.st_size;
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The median of the REPS times, then the report line. */
static void
report (const char *mode,
        gsize       bytes,
        double     *seconds,
        guint       reps,
        guint64     values)
{
  double t;

  qsort (seconds, reps, sizeof *seconds, cmp_double);
  t = reps % 2 ? seconds[reps / 2] : (seconds[reps / 2 - 1] + seconds[reps / 2]) / 2;
  printf ("%s %zu %.6f %.1f %ld %" G_GUINT64_FORMAT "\n", mode, bytes, t,
          bytes / 1e6 / t, maxrss_kb (), values);
}

typedef guint64 (*ReadFunc) (const char *path);

static guint64
read_odori (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) motion = odori_format_load_motion (path, NULL, &error);

  if (motion == NULL)
    g_error ("%s", error->message);
  return (guint64) motion->n_frames * motion->n_segments;
}

/* Odori's whole-file reader, as every load went before the readers streamed: the file
 * mapped and checked whole (odori_text_file_open), then parsed in memory. */
static guint64
read_mapped (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) file = odori_text_file_open (path, &error);
  g_autoptr(OdoriMotion) motion = NULL;
  const char *data;
  gsize len;

  if (file == NULL)
    g_error ("%s", error->message);
  data = odori_text_file_get_data (file, &len);
  motion = odori_bvh_sniff (data, MIN (len, 64))
           ? odori_bvh_load_text (file, NULL, &error)
           : odori_bva_load_text (file, NULL, &error);
  if (motion == NULL)
    g_error ("%s", error->message);
  return (guint64) motion->n_frames * motion->n_segments;
}

/* The file mapped like Odori maps it; the mapping is left to the next call's munmap. */
static const char *map_data;
static gsize map_len;

static const char *
map_file (const char *path,
          gsize      *len)
{
  int fd = open (path, O_RDONLY);
  void *map;

  if (map_data != NULL)
    munmap ((void *) map_data, map_len);
  *len = file_size (path);
  map = mmap (NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    g_error ("cannot map %s", path);
  map_data = map;
  map_len = *len;
  return map;
}

/* What a C programmer writes first: skip anything that cannot start a number, strtod
 * the rest. Header words are skipped the same way. (strtod stops at the newline that
 * ends every file measured here, inside the mapping.) */
static guint64
read_strtod (const char *path)
{
  gsize len;
  const char *p = map_file (path, &len);
  const char *end = p + len;
  double sum = 0;
  guint64 values = 0;

  while (p < end)
    {
      char *next;
      double v;

      if (!(g_ascii_isdigit (*p) || *p == '-' || *p == '.'))
        {
          p++;
          continue;
        }
      v = strtod (p, &next);
      if (next == p)
        {
          p++;
          continue;
        }
      sum += v;
      values++;
      p = next;
    }
  if (sum == 1.2345)
    printf ("unlikely\n");
  return values;
}

static const double pow10_neg[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* The limit: the simplest hand-rolled float reader, what a "parse" costs at the least.
 * Anything but a digit, '-' or '.' is skipped; digits accumulate in one integer that is
 * divided by a power of ten. No validation, no exponent, no rounding care, no model. */
static inline const char *
limit_number (const char *p,
              const char *end,
              double     *out)
{
  gboolean neg = *p == '-';
  guint64 m = 0;
  int frac = 0;

  if (neg)
    p++;
  while (p < end && (unsigned) (*p - '0') < 10u)
    m = m * 10 + (guint64) (*p++ - '0');
  if (p < end && *p == '.')
    {
      const char *f = ++p;

      while (p < end && (unsigned) (*p - '0') < 10u)
        m = m * 10 + (guint64) (*p++ - '0');
      frac = MIN (p - f, 22);
    }
  *out = neg ? -(double) m / pow10_neg[frac] : (double) m / pow10_neg[frac];
  return p;
}

static inline gboolean
starts_number (char c)
{
  return (unsigned) (c - '0') < 10u || c == '-' || c == '.';
}

/* The limit loop and the newline count stream the file through one buffer: on this kind
 * of machine every page a process touches for the first time costs microseconds (a
 * mapped 200 MB file about 0.2 s), and streaming touches no new page at all. */
#define STREAM_BLOCK (1u << 20)

typedef guint64 (*BlockFunc) (const char *p,
                              const char *end,
                              double     *sum);

/* Calls FUNC on whole lines of PATH, a block at a time; returns what FUNC counted. */
static guint64
stream_lines (const char *path,
              BlockFunc   func)
{
  static char buf[2 * STREAM_BLOCK];
  int fd = open (path, O_RDONLY);
  gsize kept = 0;
  guint64 count = 0;
  double sum = 0;
  gssize n;

  if (fd < 0)
    g_error ("cannot open %s", path);
  while ((n = read (fd, buf + kept, STREAM_BLOCK)) > 0)
    {
      const char *end = buf + kept + n;
      const char *cut = end;

      while (cut > buf && cut[-1] != '\n')
        cut--;
      if (cut == buf)
        g_error ("%s: a line longer than %u bytes", path, STREAM_BLOCK);
      count += func (buf, cut, &sum);
      kept = end - cut;
      memmove (buf, cut, kept);
    }
  close (fd);
  count += func (buf, buf + kept, &sum);
  if (sum == 1.2345)
    printf ("unlikely\n");
  return count;
}

static guint64
limit_block (const char *p,
             const char *end,
             double     *sum)
{
  guint64 values = 0;

  while (p < end)
    {
      double v;

      if (!starts_number (*p))
        {
          p++;
          continue;
        }
      p = limit_number (p, end, &v);
      *sum += v;
      values++;
    }
  return values;
}

static guint64
read_limit (const char *path)
{
  return stream_lines (path, limit_block);
}

static guint64
newline_block (const char *p,
               const char *end,
               double     *sum)
{
  guint64 lines = 0;

  (void) sum;
  while ((p = memchr (p, '\n', end - p)) != NULL)
    {
      lines++;
      p++;
    }
  return lines;
}

/* What `wc -l` does. */
static guint64
read_newline (const char *path)
{
  return stream_lines (path, newline_block);
}

static guint64
read_cat (const char *path)
{
  static char buf[128 * 1024];
  int fd = open (path, O_RDONLY);
  guint64 bytes = 0;
  gssize n;

  if (fd < 0)
    g_error ("cannot open %s", path);
  while ((n = read (fd, buf, sizeof buf)) > 0)
    bytes += n;
  close (fd);
  return bytes;
}

static int
run_read (const char *mode,
          ReadFunc    func,
          const char *path,
          guint       reps)
{
  double seconds[MAX_REPS];
  guint64 values = 0;

  for (guint i = 0; i < reps; i++)
    {
      double t0 = now ();

      values = func (path);
      seconds[i] = now () - t0;
    }
  report (mode, file_size (path), seconds, reps, values);
  return 0;
}

/* Writing */

static int
run_write (const char *mode,
           const char *path,
           const char *out_path,
           guint       reps)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) motion = odori_format_load_motion (path, NULL, &error);
  double seconds[MAX_REPS];

  if (motion == NULL)
    g_error ("%s", error->message);
  for (guint i = 0; i < reps; i++)
    {
      double t0 = now ();
      gboolean ok = strcmp (mode, "write-bva") == 0
                    ? odori_bva_save (motion, out_path, &error)
                    : odori_bvh_save (motion, NULL, out_path, &error);

      seconds[i] = now () - t0;
      if (!ok)
        g_error ("%s", error->message);
    }
  report (mode, file_size (out_path), seconds, reps,
          (guint64) motion->n_frames * motion->n_segments);
  return 0;
}

/* FILE's numbers (as the limit loop reads them) and how many end each line. */
typedef struct
{
  GArray *values;   /* double */
  GArray *per_line; /* guint, lines with numbers only */
} Numbers;

static void
collect_numbers (const char *path,
                 Numbers    *nums)
{
  gsize len;
  const char *p = map_file (path, &len);
  const char *end = p + len;
  guint on_line = 0;

  nums->values = g_array_sized_new (FALSE, FALSE, sizeof (double), len / 8);
  nums->per_line = g_array_new (FALSE, FALSE, sizeof (guint));
  while (p < end)
    {
      double v;

      if (*p == '\n')
        {
          if (on_line > 0)
            g_array_append_val (nums->per_line, on_line);
          on_line = 0;
        }
      if (!starts_number (*p))
        {
          p++;
          continue;
        }
      p = limit_number (p, end, &v);
      g_array_append_val (nums->values, v);
      on_line++;
    }
  if (on_line > 0)
    g_array_append_val (nums->per_line, on_line);
}

static int
run_printf (const char *path,
            const char *out_path,
            guint       reps)
{
  Numbers nums;
  double seconds[MAX_REPS];

  collect_numbers (path, &nums);
  for (guint i = 0; i < reps; i++)
    {
      double t0 = now ();
      FILE *f = fopen (out_path, "w");
      const double *v = (const double *) (gpointer) nums.values->data;

      if (f == NULL)
        g_error ("cannot write %s", out_path);
      for (guint l = 0; l < nums.per_line->len; l++)
        {
          guint n = g_array_index (nums.per_line, guint, l);

          for (guint k = 0; k < n; k++)
            fprintf (f, k + 1 < n ? "%.6f " : "%.6f\n", *v++);
        }
      if (fflush (f) != 0 || fsync (fileno (f)) != 0 || fclose (f) != 0)
        g_error ("cannot write %s", out_path);
      seconds[i] = now () - t0;
    }
  report ("printf", file_size (out_path), seconds, reps, nums.values->len);
  g_array_unref (nums.values);
  g_array_unref (nums.per_line);
  return 0;
}

/* The floor of any writer: FILE's bytes (read untimed) written with write(2) in 1 MiB
 * blocks, then fsync. */
static int
run_copy (const char *path,
          const char *out_path,
          guint       reps)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  double seconds[MAX_REPS];

  if (!g_file_get_contents (path, &data, &len, NULL))
    g_error ("cannot read %s", path);
  for (guint i = 0; i < reps; i++)
    {
      double t0 = now ();
      int fd = open (out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

      if (fd < 0)
        g_error ("cannot write %s", out_path);
      for (gsize off = 0; off < len;)
        {
          gssize n = write (fd, data + off, MIN (len - off, (gsize) STREAM_BLOCK));

          if (n <= 0)
            g_error ("cannot write %s", out_path);
          off += n;
        }
      if (fsync (fd) != 0 || close (fd) != 0)
        g_error ("cannot write %s", out_path);
      seconds[i] = now () - t0;
    }
  report ("copy", len, seconds, reps, len);
  return 0;
}

/* What memory costs on this machine: milliseconds per 100 MiB for the first touch of
 * fresh anonymous memory (4 KiB pages, then transparent huge pages), of a mapped file's
 * pages already in the page cache, and for reading the file through one buffer. On a
 * bare machine the first three are a few ms; in some virtual machines they dominate. */
static double
ms_per_100mib (gsize  len,
               double seconds)
{
  return seconds * 1000 * (100.0 * 1048576 / len);
}

static int
run_pages (const char *path)
{
  gsize len = file_size (path) & ~(gsize) ((2u << 20) - 1);
  const gsize huge = 2u << 20;
  volatile char sink = 0;
  double t0, anon4k, anonhuge, file, rd;
  char *m, *aligned;

  if (len < huge)
    g_error ("%s: too small to measure pages", path);

  t0 = now ();
  m = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  for (gsize i = 0; i < len; i += 4096)
    m[i] = 1;
  anon4k = ms_per_100mib (len, now () - t0);
  munmap (m, len);

  t0 = now ();
  m = mmap (NULL, len + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  aligned = (char *) (((guintptr) m + huge - 1) & ~(guintptr) (huge - 1));
#ifdef MADV_HUGEPAGE
  madvise (aligned, len, MADV_HUGEPAGE);
#endif
  for (gsize i = 0; i < len; i += 4096)
    aligned[i] = 1;
  anonhuge = ms_per_100mib (len, now () - t0);
  munmap (m, len + huge);

  t0 = now ();
  {
    int fd = open (path, O_RDONLY);

    m = mmap (NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close (fd);
    for (gsize i = 0; i < len; i += 4096)
      sink += m[i];
  }
  file = ms_per_100mib (len, now () - t0);
  munmap (m, len);

  t0 = now ();
  read_cat (path);
  rd = ms_per_100mib (file_size (path), now () - t0);

  printf ("pages anon-4k %.1f anon-huge %.1f file-map %.1f read %.1f\n",
          anon4k, anonhuge, file, rd);
  return 0;
}

static guint
parse_reps (int    argc,
            char **argv,
            int    i)
{
  int n = i < argc ? atoi (argv[i]) : 1;

  return CLAMP (n, 1, MAX_REPS);
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char *mode;
    ReadFunc    func;
  } readers[] = {
    { "cat", read_cat },
    { "newline", read_newline },
    { "limit", read_limit },
    { "strtod", read_strtod },
    { "odori", read_odori },
    { "mapped", read_mapped },
  };

  setlocale (LC_ALL, "C");

  if (argc == 4 && strcmp (argv[1], "gen-bva") == 0)
    return gen_bva (argv[2], argv[3]);
  if (argc == 4 && strcmp (argv[1], "gen-bvh") == 0)
    return gen_bvh (argv[2], argv[3]);
  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    if ((argc == 3 || argc == 4) && strcmp (argv[1], readers[i].mode) == 0)
      return run_read (readers[i].mode, readers[i].func, argv[2], parse_reps (argc, argv, 3));
  if ((argc == 4 || argc == 5) &&
      (strcmp (argv[1], "write-bva") == 0 || strcmp (argv[1], "write-bvh") == 0))
    return run_write (argv[1], argv[2], argv[3], parse_reps (argc, argv, 4));
  if ((argc == 4 || argc == 5) && strcmp (argv[1], "printf") == 0)
    return run_printf (argv[2], argv[3], parse_reps (argc, argv, 4));
  if ((argc == 4 || argc == 5) && strcmp (argv[1], "copy") == 0)
    return run_copy (argv[2], argv[3], parse_reps (argc, argv, 4));
  if (argc == 3 && strcmp (argv[1], "pages") == 0)
    return run_pages (argv[2]);

  fprintf (stderr, "usage: bench-parse gen-bva|gen-bvh FILE MB|FRAMESf\n"
                   "       bench-parse cat|newline|limit|strtod|odori FILE [REPS]\n"
                   "       bench-parse write-bva|write-bvh|printf|copy FILE OUT [REPS]\n"
                   "       bench-parse pages FILE\n");
  return 2;
}

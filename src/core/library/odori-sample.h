/* odori-sample.h: the built-in sample dance library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes the sample library into DIR (created if needed): motion.dat (UTF-8, Japanese
 * and English names), four BVA show files of keyframed dance on an 18-segment Biovision
 * skeleton, and sample.dds, a score mixing parts from different shows. */
gboolean odori_sample_write (const char  *dir,
                             GError     **error);

/* Makes sure DIR holds this version's sample library, writing it only when it is not
 * there already: a stamp beside it (DIR/.odori-sample-stamp) names the version of Odori
 * and of the generator that wrote it and each file's size and modification time, so a
 * start-up costs a few stat() calls, and a file changed, damaged or removed since, or
 * another version of Odori, writes the whole library afresh. */
gboolean odori_sample_ensure (const char  *dir,
                              GError     **error);

G_END_DECLS

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

G_END_DECLS

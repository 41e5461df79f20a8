/* odori-share.h: the errors of libodori-share (glTF, video and printed-score exports)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ODORI_SHARE_ERROR (odori_share_error_quark ())

typedef enum
{
  ODORI_SHARE_ERROR_FAILED,      /* the output could not be made (a message says why) */
  ODORI_SHARE_ERROR_UNSUPPORTED, /* a GStreamer element or a feature is missing */
} OdoriShareError;

GQuark odori_share_error_quark (void);

G_END_DECLS

/* odori-share.c: the errors of libodori-share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "odori-share.h"

GQuark
odori_share_error_quark (void)
{
  return g_quark_from_static_string ("odori-share-error-quark");
}

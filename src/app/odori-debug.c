/* odori-debug.c: ODORI_DEBUG, the one switch for test and benchmark hooks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hooks that only scripts use (the start-up benchmark, the documentation's
 * screenshots) stay off the shipped paths unless ODORI_DEBUG names them, as GTK_DEBUG
 * does for GTK: parsed once with g_parse_debug_string(), so "help" lists the keys.
 */
#include "config.h"

#include "odori-debug.h"

OdoriDebugFlags
odori_debug_get_flags (void)
{
  static gsize flags;

  if (g_once_init_enter (&flags))
    {
      static const GDebugKey keys[] = {
        { "first-frame", ODORI_DEBUG_FIRST_FRAME },
        { "screenshot", ODORI_DEBUG_SCREENSHOT },
      };
      /* The bit above the keys marks "read", so that no flag set is still "read". */
      gsize value = 1u << 16;

      value |= g_parse_debug_string (g_getenv ("ODORI_DEBUG"), keys, G_N_ELEMENTS (keys));
      g_once_init_leave (&flags, value);
    }
  return (OdoriDebugFlags) (flags & 0xffff);
}

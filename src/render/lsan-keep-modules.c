/* lsan-keep-modules.c: a no-op dlclose, linked into sanitizer builds only
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Mesa unloads its DRI driver at eglTerminate()/XCloseDisplay(); LeakSanitizer then
 * cannot symbolize the driver's process-lifetime allocations ("<unknown module>") and
 * no suppression can match them. Keeping every module mapped makes them ordinary
 * reachable memory. See GUI-TESTING.md §6.
 */
int dlclose (void *handle);

int
dlclose (void *handle)
{
  (void) handle;
  return 0;
}

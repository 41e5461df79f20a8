/* odori-video.h: a composed dance as a WebM video (VP9, with the score's music as Opus)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The dance is drawn headless (odori-headless.h, the renderer odori-cli render uses:
 * same views, skin, bulges and antialiasing) frame by frame into GStreamer:
 *
 *   appsrc ! videoconvert ! vp9enc ! queue ! webmmux ! filesink (a temporary file)
 *   appsrc ! audioconvert ! audioresample ! opusenc ! queue ! webmmux
 *
 * The music is decoded by a second pipeline (uridecodebin ! audioconvert ! audioresample
 * ! appsink) and pushed beside the frames, shifted by the score's MusicOffset (music time
 * = video time + offset) and cut at the dance's end. The worker that runs the export owns
 * the EGL context it renders with. See docs/sharing.md "Video".
 */
#pragma once

#include <gio/gio.h>

#include "odori-bulge.h"
#include "odori-capture.h"
#include "odori-motion.h"
#include "odori-render-types.h"

G_BEGIN_DECLS

/* The default size and the largest side (an even number of pixels each way). */
#define ODORI_VIDEO_DEFAULT_WIDTH  1280
#define ODORI_VIDEO_DEFAULT_HEIGHT 720
#define ODORI_VIDEO_MAX_SIDE       4096
/* The highest frame rate chosen by default; a faster motion is shown every k-th frame. */
#define ODORI_VIDEO_DEFAULT_MAX_FPS 60

#define ODORI_TYPE_VIDEO (odori_video_get_type ())

G_DECLARE_FINAL_TYPE (OdoriVideo, odori_video, ODORI, VIDEO, GObject)

/* A video of MOTION (a composed dance, global transforms) into PATH (.webm). Takes a
 * reference to MOTION, which nobody may change meanwhile: pass a copy of a motion that
 * lives on. Set the options before running. */
OdoriVideo *odori_video_new (OdoriMotion *motion,
                             const char  *path);
const char *odori_video_get_path (OdoriVideo *self);
/* WIDTH x HEIGHT pixels, each even and 16 to ODORI_VIDEO_MAX_SIDE (odori_video_run
 * refuses others). Default ODORI_VIDEO_DEFAULT_WIDTH x ODORI_VIDEO_DEFAULT_HEIGHT. */
void odori_video_set_size (OdoriVideo *self,
                           int         width,
                           int         height);
void odori_video_set_view (OdoriVideo *self,
                           OdoriView   view);
void odori_video_set_up_axis (OdoriVideo *self,
                              OdoriUpAxis up);
/* Multisample antialiasing per pixel, as odori-cli render --samples (default 4). */
void odori_video_set_samples (OdoriVideo *self,
                              int         samples);
void odori_video_set_show_skin (OdoriVideo *self,
                                gboolean    show);
/* Muscle bulges for the skin, or NULL for none (the default). Takes a reference. */
void odori_video_set_bulges (OdoriVideo    *self,
                             OdoriBulgeSet *bulges);
/* Frames per second as FPS_N / FPS_D; 0 / 1 (the default) means the motion's own rate,
 * or an exact fraction of it no faster than ODORI_VIDEO_DEFAULT_MAX_FPS. Another rate
 * shows, at each video frame's time, the motion's frame nearest to it. */
void odori_video_set_fps (OdoriVideo *self,
                          int         fps_n,
                          int         fps_d);
/* The frame rate and number of frames the video will have. */
void  odori_video_get_fps (OdoriVideo *self,
                           int        *fps_n,
                           int        *fps_d);
guint odori_video_get_n_frames (OdoriVideo *self);
/* The 0-based motion frame shown in video frame FRAME (0-based). */
guint odori_video_get_motion_frame (OdoriVideo *self,
                                    guint       frame);
/* The music (any file GStreamer decodes; NULL for a silent video) and OFFSET, the seconds
 * of music at the dance's first frame (a score's MusicOffset, any sign). */
void odori_video_set_music (OdoriVideo *self,
                            const char *music_path,
                            double      offset);
/* 0 … 1, readable from any thread while the video is made. */
double odori_video_get_fraction (OdoriVideo *self);
/* Writes atomically: on error or cancellation no file is left and the target is
 * untouched. Errors: ODORI_SHARE_ERROR, G_IO_ERROR_CANCELLED, ODORI_RENDER_ERROR,
 * ODORI_MEDIA_ERROR (the music), G_FILE_ERROR. */
gboolean odori_video_run (OdoriVideo   *self,
                          GCancellable *cancellable,
                          GError      **error);
/* The same in a worker thread (which owns the GL context it renders with). */
void     odori_video_run_async (OdoriVideo         *self,
                                GCancellable       *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer            user_data);
gboolean odori_video_run_finish (OdoriVideo   *self,
                                 GAsyncResult *result,
                                 GError      **error);

G_END_DECLS

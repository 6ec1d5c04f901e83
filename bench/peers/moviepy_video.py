"""The video line (`moviemaker-bench`'s VideoBench.swift) done with MoviePy 2.2.1, as its documentation
suggests: recorded clips (ten 1080p30 H.264 files with sound in the benchmark, BenchVideos.swift)
stitched with 0.5-s crossfades — `concatenate_videoclips(method="compose", padding=-0.5)`, each clip
after the first with `CrossFadeIn(0.5)` — the sound kept and crossfaded (`AudioFadeOut(0.5)` on every
clip but the last, `AudioFadeIn(0.5)` on every clip but the first), written with libx264 at the given
preset and CRF, High profile, yuv420p, AAC 192 kbit/s 48 kHz, +faststart, as MovieMaker's render and
the ffmpeg command line (xfade + acrossfade) of the video line write it.

    python moviepy_video.py CLIP… --out out.mp4 [--preset medium] [--crf 20] [--threads N] [--crossfade 0.5]

The movie lasts n·length − (n − 1)·crossfade (ten 10-s clips: 95.5 s, 2865 frames at 30 fps); it has
the clips' size and frame rate (the largest, and the highest, if they differ). MoviePy decodes each
clip through its own ffmpeg process (imageio-ffmpeg's binary), composes the overlapping frames in
NumPy, and pipes RGB frames to another ffmpeg that encodes them; the sound is mixed and encoded
first, into a temporary file beside the output, then muxed in.

What is not as the others do it: MoviePy's audio fades are linear (ffmpeg's acrossfade and
MovieMaker use an equal-power curve, qsin); the sound is read at 48 kHz (MoviePy's default is 44.1).
"""
import argparse
import os
import sys

from moviepy import VideoFileClip, afx, concatenate_videoclips, vfx

COLOR = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
AUDIO_RATE = 48000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("clips", nargs="+", help="the clip files, in order")
    ap.add_argument("--out", required=True)
    ap.add_argument("--preset", default="medium")
    ap.add_argument("--crf", type=int, default=20)
    ap.add_argument("--threads", type=int, help="ffmpeg's -threads for the encoder (default: ffmpeg's choice)")
    ap.add_argument("--crossfade", type=float, default=0.5)
    a = ap.parse_args()
    if len(a.clips) < 2:
        ap.error("at least two clips are needed")
    fade = a.crossfade
    sources = [VideoFileClip(path, audio_fps=AUDIO_RATE) for path in a.clips]
    clips = []
    for i, clip in enumerate(sources):
        video_effects, audio_effects = [], []
        if i > 0:
            video_effects.append(vfx.CrossFadeIn(fade))
            audio_effects.append(afx.AudioFadeIn(fade))
        if i < len(sources) - 1:
            audio_effects.append(afx.AudioFadeOut(fade))
        if video_effects:
            clip = clip.with_effects(video_effects)
        if clip.audio is not None and audio_effects:
            clip = clip.with_audio(clip.audio.with_effects(audio_effects))
        clips.append(clip)
    movie = concatenate_videoclips(clips, method="compose", padding=-fade)
    params = ["-crf", str(a.crf), "-profile:v", "high"] + COLOR + ["-movflags", "+faststart"]
    movie.write_videofile(a.out, fps=movie.fps, codec="libx264", preset=a.preset, threads=a.threads,
                          ffmpeg_params=params, pixel_format="yuv420p",
                          audio_codec="aac", audio_bitrate="192k", audio_fps=AUDIO_RATE,
                          temp_audiofile_path=os.path.dirname(os.path.abspath(a.out)), logger=None)
    for clip in sources:
        clip.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

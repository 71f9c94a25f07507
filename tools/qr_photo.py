"""What a phone makes of the screen: the photos and videos that the QR codes must survive.

The end-of-run screen's pages (docs/qr-codes.md) are read back from photos or a video taken by
hand. A photo is never square to the screen, sharp or evenly lit; these are the degradations that
tools/qr-measure chooses the screens' plans with (kernel/qr/plan.c) and that the tests apply to
the kernel's screendumps (tests/qemu/cases_qr.py), each as a function of a PIL image that returns
the photo's JPEG bytes:

    keystone(k)  150% larger, the top edge k narrower than the bottom (a phone tilted back), turned
                 3 degrees, blurred (Gaussian, sigma 1.0), JPEG of quality 70 (issue 25's photo)
    lamp         the same at 2% keystone, then a brightness gradient across the picture (a lamp
                 beside the screen: glare at one side, shade at the other) and noise
    small        80% of the screen's size, turned 3 degrees, blurred (sigma 0.6), JPEG 70: a phone
                 held further away

write_video() makes a video of pictures with Debian's ffmpeg (H.264 in MP4, as a phone films).
"""

import io
import os
import shutil
import subprocess
import tempfile

import numpy
from PIL import Image, ImageFilter

ANGLE = 3.0          # degrees, counter-clockwise
BLUR = 1.0           # Gaussian sigma, in the photo's pixels
SCALE = 1.5
QUALITY = 70
FFMPEG = "ffmpeg"


def _homography(source, target):
    """The 3x3 projective map taking the four source points to the four target points."""
    rows, values = [], []
    for (x, y), (u, v) in zip(source, target):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        values += [u, v]
    h = numpy.linalg.solve(numpy.array(rows, float), numpy.array(values, float))
    return numpy.append(h, 1.0).reshape(3, 3)


def photograph(image, keystone=0.0, angle=ANGLE, blur=BLUR, scale=SCALE):
    """The screen as the camera sees it (before JPEG): scaled, its top edge narrowed by keystone
    (a fraction of the width), turned by angle degrees, blurred; white around it."""
    image = image.convert("RGB")
    w, h = image.size
    k = keystone * w / 2
    forward = _homography([(0, 0), (w, 0), (0, h), (w, h)], [(k, 0), (w - k, 0), (0, h), (w, h)])
    t = numpy.radians(angle)
    # Image rows grow downwards: a counter-clockwise turn on the picture is -angle here.
    turn = numpy.array([[numpy.cos(t), numpy.sin(t), 0], [-numpy.sin(t), numpy.cos(t), 0],
                        [0, 0, 1]])
    forward = numpy.diag([scale, scale, 1.0]) @ turn @ forward
    corners = forward @ numpy.array([[0, w, 0, w], [0, 0, h, h], [1, 1, 1, 1]], float)
    corners = corners[:2] / corners[2]
    low, high = corners.min(axis=1), corners.max(axis=1)
    forward = numpy.array([[1, 0, -low[0]], [0, 1, -low[1]], [0, 0, 1]]) @ forward
    back = numpy.linalg.inv(forward)
    back /= back[2, 2]
    size = (int(numpy.ceil(high[0] - low[0])), int(numpy.ceil(high[1] - low[1])))
    photo = image.transform(size, Image.PERSPECTIVE, tuple(back.flatten()[:8]), Image.BICUBIC,
                            fillcolor=(255, 255, 255))
    return photo.filter(ImageFilter.GaussianBlur(blur)) if blur else photo


def jpeg(image, quality=QUALITY):
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality)
    return out.getvalue()


def keystone(fraction):
    """Issue 25's photo with the top edge narrowed by fraction (0.08: 8%)."""
    def degrade(image):
        return jpeg(photograph(image, keystone=fraction))
    degrade.__name__ = "keystone %d%%" % round(fraction * 100)
    return degrade


def lamp(image, seed=25):
    """Keystone 2%, then glare at the left (black lifted to a third of white), shade at the right
    (white down to half), and Gaussian noise (sigma 8 of 255)."""
    photo = numpy.asarray(photograph(image, keystone=0.02), dtype=float)
    ramp = numpy.linspace(0.0, 1.0, photo.shape[1])[None, :, None]
    photo = 85 * (1 - ramp) + photo * (1 - 85 / 255 * (1 - ramp))
    photo *= 1 - 0.5 * ramp
    photo += numpy.random.default_rng(seed).normal(0, 8, photo.shape)
    return jpeg(Image.fromarray(numpy.clip(photo, 0, 255).astype(numpy.uint8)))


def small(image):
    """80% of the screen's size, turned 3 degrees, blurred a little (sigma 0.6), JPEG 70."""
    return jpeg(photograph(image, scale=0.8, blur=0.6))


DEGRADATIONS = {
    "keystone-2": keystone(0.02),
    "keystone-5": keystone(0.05),
    "keystone-8": keystone(0.08),
    "lamp": lamp,
    "small": small,
}


def ffmpeg_available():
    return shutil.which(FFMPEG) is not None


def write_video(pictures, path, seconds_each=2.0, fps=10):
    """A video of the pictures in turn, each for seconds_each, at fps frames a second: H.264
    (yuv420p, CRF 23, ffmpeg's default quality) in MP4, the container of a phone's video. Every
    picture is padded to the first one's size. Raises RuntimeError with ffmpeg's words."""
    if not pictures:
        raise ValueError("no pictures for a video")
    work = tempfile.mkdtemp(prefix="qr-video-")
    try:
        size = Image.open(pictures[0]).size
        # Even sizes: yuv420p halves the colour planes.
        size = (size[0] + size[0] % 2, size[1] + size[1] % 2)
        frames = max(1, round(seconds_each * fps))
        for i, picture in enumerate(pictures):
            frame = Image.new("RGB", size, (255, 255, 255))
            frame.paste(Image.open(picture).convert("RGB"), (0, 0))
            frame.save(os.path.join(work, "%05d.png" % i))
        run = subprocess.run(
            [FFMPEG, "-v", "error", "-y", "-framerate", "%g" % (1.0 / seconds_each), "-i",
             os.path.join(work, "%05d.png"), "-vf", "fps=%d" % fps, "-c:v", "libx264",
             "-pix_fmt", "yuv420p", "-crf", "23", "-frames:v", str(frames * len(pictures)),
             path], capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            raise RuntimeError("ffmpeg could not write %s: %s" % (
                path, run.stderr.strip()[-500:]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return path

#!/usr/bin/python3
"""SSIM of a picture drawn in a terminal screenshot against its source.

usage: picture-ssim.py SHOT SOURCE [--cell WxH] [--origin X,Y] [--rgb] [--json]

The picture's box is found as the rows and columns of the screenshot with
at least 30 % as many pixels unlike the window's background (the most
common colour of the screenshot's border) as the fullest row or column, so
a cursor cell or a prompt beside it does not count; with --cell and --origin the box is snapped outwards to whole cells.
The source is resized (Lanczos) to exactly that box and SSIM is computed on
luma (ITU-R 601, as PIL's 'L'), Gaussian window sigma 1.5 (11x11), the
constants of Wang et al. 2004 (K1 0.01, K2 0.03, L 255): the usual
definition. --rgb gives the mean of the three colour channels' SSIM instead,
which also counts colour errors luma hides. Needs Debian's python3-pil and python3-numpy (/usr/bin/python3).
"""
import argparse, json, sys
import numpy as np
from PIL import Image


def gaussian_blur(a, sigma=1.5, radius=5):
    x = np.arange(-radius, radius + 1)
    k = np.exp(-(x * x) / (2 * sigma * sigma))
    k /= k.sum()
    # 'valid' in both directions: SSIM over windows wholly inside the picture
    a = np.apply_along_axis(lambda r: np.convolve(r, k, mode='valid'), 1, a)
    return np.apply_along_axis(lambda c: np.convolve(c, k, mode='valid'), 0, a)


def ssim(a, b):
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mu_a, mu_b = gaussian_blur(a), gaussian_blur(b)
    saa = gaussian_blur(a * a) - mu_a * mu_a
    sbb = gaussian_blur(b * b) - mu_b * mu_b
    sab = gaussian_blur(a * b) - mu_a * mu_b
    num = (2 * mu_a * mu_b + c1) * (2 * sab + c2)
    den = (mu_a * mu_a + mu_b * mu_b + c1) * (saa + sbb + c2)
    return float((num / den).mean())


def find_box(shot, share=0.3):
    edge = np.concatenate([shot[0], shot[-1], shot[:, 0], shot[:, -1]])
    vals, counts = np.unique(edge.reshape(-1, 3), axis=0, return_counts=True)
    bg = vals[counts.argmax()].astype(np.int32)
    diff = np.abs(shot.astype(np.int32) - bg).sum(axis=2) > 24
    per_row = diff.sum(axis=1)
    if per_row.max() == 0:
        return None
    rows = np.where(per_row > share * per_row.max())[0]
    per_column = diff[rows[0]:rows[-1] + 1].sum(axis=0)
    cols = np.where(per_column > share * per_column.max())[0]
    return int(cols[0]), int(rows[0]), int(cols[-1] + 1), int(rows[-1] + 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('shot')
    ap.add_argument('source')
    ap.add_argument('--cell', help='WxH: snap the box outwards to whole cells of this size')
    ap.add_argument('--origin', default='0,0', help='X,Y: the top-left of the first cell (xterm: 2,2)')
    ap.add_argument('--rgb', action='store_true', help='the mean SSIM of R, G and B instead of luma')
    ap.add_argument('--json', action='store_true')
    a = ap.parse_args()
    shot = np.asarray(Image.open(a.shot).convert('RGB'))
    box = find_box(shot)
    if box is None:
        print('no picture found', file=sys.stderr)
        sys.exit(1)
    x0, y0, x1, y1 = box
    if a.cell:
        cw, ch = (int(v) for v in a.cell.split('x'))
        ox, oy = (int(v) for v in a.origin.split(','))
        x0 = ox + (x0 - ox) // cw * cw
        y0 = oy + (y0 - oy) // ch * ch
        x1 = ox + -(-(x1 - ox) // cw) * cw
        y1 = oy + -(-(y1 - oy) // ch) * ch
    region = Image.fromarray(shot[y0:y1, x0:x1])
    source = Image.open(a.source).convert('RGB').resize((x1 - x0, y1 - y0), Image.LANCZOS)
    if a.rgb:
        r, s = np.asarray(region), np.asarray(source)
        value = sum(ssim(r[:, :, c], s[:, :, c]) for c in range(3)) / 3
    else:
        value = ssim(np.asarray(region.convert('L')), np.asarray(source.convert('L')))
    if a.json:
        print(json.dumps({'ssim': round(value, 4), 'box': [x0, y0, x1 - x0, y1 - y0]}))
    else:
        print(f'{value:.4f}  box {x1 - x0}x{y1 - y0}+{x0}+{y0}')


if __name__ == '__main__':
    main()

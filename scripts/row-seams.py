#!/usr/bin/python3
"""Seams along rows of cells in a screenshot of a text picture.

usage: row-seams.py SHOT --cell WxH [--origin X,Y] [--rows N]

For each pixel row of the picture, how far it stands out from both rows
around it: per pixel the smaller of its differences (luma, 8-bit levels)
from the pixel above and the one below, averaged along the row. A step
between two cells' colours scores 0 (the row matches one side); a line
one pixel high scores its contrast. A row of cells whose top pixel row
shows another colour (xterm drawing a glyph inked at the top: the font's
ink starts below the cell) stands out on every cell's first row. Prints
the mean over the first pixel row of each cell and over all the other
rows; a picture without seams has the first no larger than the second.
Needs python3-pil and python3-numpy (/usr/bin/python3).
"""
import argparse
import numpy as np
from PIL import Image

ap = argparse.ArgumentParser()
ap.add_argument('shot')
ap.add_argument('--cell', required=True)
ap.add_argument('--origin', default='2,2')
ap.add_argument('--rows', type=int, help='cell rows of the picture (default: all rows with picture pixels)')
ap.add_argument('--columns', type=int, help='cell columns of the picture (default: all)')
a = ap.parse_args()
cw, ch = (int(v) for v in a.cell.split('x'))
ox, oy = (int(v) for v in a.origin.split(','))
shot = np.asarray(Image.open(a.shot).convert('L')).astype(float)
rows = a.rows or (shot.shape[0] - oy) // ch
cols = a.columns or (shot.shape[1] - ox) // cw
pic = shot[oy:oy + rows * ch, ox:ox + cols * cw]
stand = np.minimum(np.abs(pic[1:-1] - pic[:-2]), np.abs(pic[1:-1] - pic[2:])).mean(axis=1)
ys = np.arange(1, pic.shape[0] - 1)
first = stand[ys % ch == 0]
other = stand[ys % ch != 0]
print(f'cell top rows {first.mean():.2f}  other rows {other.mean():.2f}')

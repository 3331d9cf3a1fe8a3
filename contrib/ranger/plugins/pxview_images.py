# ranger (1.9.3 or later) plugin: pxview draws ranger's image previews, in
# sixel terminals (ranger has no sixel method of its own) and kitty alike.
# Copy to ~/.config/ranger/plugins/ and put in ~/.config/ranger/rc.conf:
#
#   set preview_images true
#   set preview_images_method pxview
#
# ranger asks its preview script what a file is; images must answer 7
# ("draw it as an image"): ranger's own scope.sh does for image/* files, or
# use the scope.sh beside this plugin. pxview writes to the terminal itself
# in one write (cursor saved and restored) and asks the terminal nothing:
# the protocol comes from PXVIEW_PROTOCOL, an earlier pxview run in the same
# terminal, or the environment (see pxview doctor).
import subprocess

from ranger.core.shared import FileManagerAware
from ranger.ext.img_display import ImageDisplayer, register_image_displayer


@register_image_displayer("pxview")
class PxviewImageDisplayer(ImageDisplayer, FileManagerAware):
    """ranger calls draw() with the pane in cells (0-based) after curses has
    drawn, and clear() with the same box before it draws the pane again."""

    @staticmethod
    def _run(arguments):
        # stdout is ranger's terminal; stdin must not be (ranger reads it).
        subprocess.run(["pxview"] + arguments, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    def draw(self, path, start_x, start_y, width, height):
        self._run(["show", "--once", "--place", "%dx%d@%d,%d" % (width, height, start_x, start_y), "--", path])

    def clear(self, start_x, start_y, width, height):
        self._run(["clear", "--place", "%dx%d@%d,%d" % (width, height, start_x, start_y)])
        # A sixel's blanked cells are ranger's again: have curses repaint them.
        self.fm.ui.win.redrawwin()
        self.fm.ui.win.refresh()

    def quit(self):
        self._run(["clear"])

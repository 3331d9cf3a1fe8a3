#include "pxview_png.h"

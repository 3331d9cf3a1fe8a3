#ifndef PXVIEW_PNG_H
#define PXVIEW_PNG_H
#include <stddef.h>
#endif

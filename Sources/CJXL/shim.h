#ifndef PXVIEW_CJXL_SHIM_H
#define PXVIEW_CJXL_SHIM_H
/// libjxl's types only: its functions are reached through CShims'
/// pxview_jxl.c, which loads the library on first use (see pxview_codec.h).
#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#endif

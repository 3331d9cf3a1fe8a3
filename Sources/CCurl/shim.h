#ifndef PXVIEW_CCURL_SHIM_H
#define PXVIEW_CCURL_SHIM_H
/// libcurl's types and constants only: the functions are reached through
/// CShims' pxview_curl.h, which loads libcurl on first use.
#include <curl/curl.h>
#endif

# Release build settings shared by run.sh and bench.sh (sourced).
# Static Swift runtime and lazy symbol binding: a dynamically linked Swift
# binary spends milliseconds resolving the symbols of its runtime and
# Foundation before main runs (measured with hyperfine: `pxview --version`
# 16 ms dynamic, 9 ms static; `show` of a 1920x1280 JPEG as 800x600 sixel
# 51 -> 38 ms; libcurl's later move to dlopen took --version to 3.8 ms).
release_flags=(-c release --static-swift-stdlib -Xlinker -z -Xlinker lazy)

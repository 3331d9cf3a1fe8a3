# Release build settings shared by run.sh and bench.sh (sourced).
# Static Swift runtime and lazy symbol binding: measured on pxview show
# (hyperfine, 800x600 sixel of a 1920x1280 JPEG) 51 ms -> 38 ms, because a
# dynamically linked Swift binary spends ~10 ms resolving symbols of its
# runtime, Foundation and libcurl's dependencies before main runs.
release_flags=(-c release --static-swift-stdlib -Xlinker -z -Xlinker lazy)

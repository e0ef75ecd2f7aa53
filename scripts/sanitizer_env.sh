# The sanitizers' run-time options, for the sanitized tests of scripts/test.sh
# and the fuzz targets of scripts/fuzz.sh (source it; a value already set wins).
# max_malloc_fill_size=0: no pattern fill of each new allocation (a third of
# the run time of the game targets, and no help to ASan's checks).
# quarantine_size_mb=32 (default 256): freed memory is reused sooner, so
# fewer fresh pages are faulted in; the game targets run ~1.5x faster and a
# use after free is still caught within 32 MB of later allocations.
# malloc_context_size=8: the stack kept per allocation for a report (default 30).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:max_malloc_fill_size=0:quarantine_size_mb=32:malloc_context_size=8}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

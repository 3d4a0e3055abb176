# SPDX-License-Identifier: MIT
# Sanitizer and fuzzing builds (docs/reliability.md). Each is a build folder of its own:
#   -DMEMVIZ_SANITIZE=ON  model/, the test suites that need no window and the fuzz replay,
#                         with AddressSanitizer + UndefinedBehaviorSanitizer; any report fails
#                         (packaging/dev.sh test runs it in CI)
#   -DMEMVIZ_FUZZ=ON      model/ and the libFuzzer targets of tests/fuzz (clang only)
# Both build no widgets/ and no app/ (MEMVIZ_MODEL_ONLY). The instrumentation reaches everything
# that links memviz_model through the interface library memviz_sanitizers, and nothing else
# (the native test programs that heaptrack and valgrind record stay plain).
option(MEMVIZ_SANITIZE "Build model/ and the window-less test suites with ASan + UBSan" OFF)
option(MEMVIZ_FUZZ "Build model/ and the libFuzzer targets of tests/fuzz (clang)" OFF)

set(MEMVIZ_MODEL_ONLY OFF)
add_library(memviz_sanitizers INTERFACE)
if(MEMVIZ_SANITIZE OR MEMVIZ_FUZZ)
    set(MEMVIZ_MODEL_ONLY ON)
    set(MEMVIZ_BUILD_BENCH OFF CACHE BOOL "" FORCE)
    # -fno-sanitize-recover: a UBSan report aborts like an ASan one, so a test or replay fails.
    set(_memviz_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    if(MEMVIZ_FUZZ)
        if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
            message(FATAL_ERROR "MEMVIZ_FUZZ needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang")
        endif()
        list(APPEND _memviz_san -fsanitize=fuzzer-no-link)
    endif()
    target_compile_options(memviz_sanitizers INTERFACE ${_memviz_san})
    target_link_options(memviz_sanitizers INTERFACE -fsanitize=address,undefined)
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        # clang links UBSan's C++ part (vptr checks) only when asked.
        target_link_options(memviz_sanitizers INTERFACE -fsanitize-link-c++-runtime)
    endif()
endif()

# Called once memviz_model exists.
function(memviz_instrument_model)
    if(MEMVIZ_MODEL_ONLY)
        target_link_libraries(memviz_model PUBLIC memviz_sanitizers)
    endif()
endfunction()

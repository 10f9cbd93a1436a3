# c-settings.cmake: the C settings and build tools of every rdb build,
# included by the top CMakeLists.txt and by syscallgen/CMakeLists.txt when
# that is configured alone (cmake -S syscallgen), so the two cannot drift.
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
set(CMAKE_C_EXTENSIONS OFF)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE RelWithDebInfo)
endif()
# Assertions stay on in release builds (STYLE.md: a broken invariant aborts).
string(REPLACE "-DNDEBUG" "" CMAKE_C_FLAGS_RELWITHDEBINFO "${CMAKE_C_FLAGS_RELWITHDEBINFO}")
string(REPLACE "-DNDEBUG" "" CMAKE_C_FLAGS_RELEASE "${CMAKE_C_FLAGS_RELEASE}")
add_compile_options(-Wall -Wextra)
add_compile_definitions(_GNU_SOURCE)
option(RDB_WERROR "Treat warnings as errors (CI)" OFF)
if(RDB_WERROR)
  add_compile_options(-Werror)
endif()

find_package(FLEX REQUIRED)
find_package(BISON REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(CHECK REQUIRED IMPORTED_TARGET check)

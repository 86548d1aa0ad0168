# Every third-party dependency, found once, from Debian 12's packages
# (scripts/install-deps.sh installs them).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(ICU REQUIRED COMPONENTS uc i18n)
find_package(Protobuf REQUIRED)
# grpc++ 1.51 (pkg-config; built on the same Debian protobuf 3.21 as ours):
# idres serve --grpc-listen, its reflection service and the C++ gRPC client.
pkg_check_modules(GRPCPP REQUIRED IMPORTED_TARGET grpc++)
# nghttp2: the benchmark suite's gRPC load generator (client/grpc_upserts.h),
# HTTP/2 at the least cost per call on the core it shares with the server.
pkg_check_modules(NGHTTP2 REQUIRED IMPORTED_TARGET libnghttp2)
find_library(IDRES_GRPC_REFLECTION grpc++_reflection REQUIRED)
find_program(IDRES_GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)
find_package(Boost 1.74 REQUIRED COMPONENTS system)
# Boost 1.74's Asio turns co_await on for clang only beside libc++'s
# <experimental/coroutine>. With libstdc++ clang has C++20's <coroutine>,
# which Asio then uses, so a clang build (-DIDRES_THREAD_SAFETY=ON) says so
# for every target that uses Asio (they all link Boost::system).
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set_property(TARGET Boost::system APPEND PROPERTY
               INTERFACE_COMPILE_DEFINITIONS BOOST_ASIO_HAS_CO_AWAIT=1)
endif()
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
find_package(tomlplusplus REQUIRED)

# libpq: the engine's connections (pipeline mode, engine/detail/pg_conn.h)
# and its URI parser (engine/database_url.h).
find_package(PostgreSQL REQUIRED)
# libpqxx 6.4 (pkg-config file only): the tests' and benchmarks' own SQL.
pkg_check_modules(PQXX REQUIRED IMPORTED_TARGET libpqxx)
# librdkafka (C++ API, and the C one for its partitioner and the tests' mock
# cluster): `idres consume` and `changes --to-kafka` (batch/ only).
pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET rdkafka++ rdkafka)

# libphonenumber ships no CMake config: find it by hand; it needs protobuf.
find_library(PHONENUMBER_LIBRARY phonenumber REQUIRED)
find_path(PHONENUMBER_INCLUDE_DIR phonenumbers/phonenumberutil.h REQUIRED)
add_library(idres_phonenumber INTERFACE)
target_link_libraries(idres_phonenumber INTERFACE ${PHONENUMBER_LIBRARY} protobuf::libprotobuf)
target_include_directories(idres_phonenumber SYSTEM INTERFACE ${PHONENUMBER_INCLUDE_DIR})

if(IDRES_BUILD_TESTS)
  find_package(Catch2 REQUIRED)
endif()

# jemalloc: the malloc of idres's executables (idres_use_allocator), not of
# its libraries, so a program that embeds them keeps its own. An upsert makes
# and frees many small strings and vectors on every thread at once; glibc's
# malloc spends a quarter of idres's CPU on them in a bulk import
# (BENCHMARKS.md, "jemalloc as the executables' malloc"). The sanitizers
# bring their own malloc.
if(IDRES_SANITIZE OR IDRES_FUZZ)
  set(IDRES_JEMALLOC OFF)
endif()
if(IDRES_JEMALLOC)
  pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)
endif()
function(idres_use_allocator target)
  if(IDRES_JEMALLOC)
    target_link_libraries(${target} PRIVATE PkgConfig::JEMALLOC)
  endif()
endfunction()

# JSON for the command-line tools (normalize, import): header-only.
find_package(nlohmann_json 3 REQUIRED)

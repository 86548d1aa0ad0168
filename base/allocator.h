// Which malloc this process allocates with, for its log: idres's
// executables link jemalloc (CMakeLists.txt, IDRES_JEMALLOC), and a build
// or a loader that lost it would otherwise only show as a slower server.
#pragma once

#include <dlfcn.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace idres {

// "jemalloc <version>" when the malloc this process calls is jemalloc's;
// else the file name of the library that defines it ("libc.so.6": glibc's).
inline std::string AllocatorName() {
  // The definition the dynamic linker binds malloc to: the first in the
  // global lookup order, as every call of malloc in the process gets.
  void* const malloc_at = ::dlsym(RTLD_DEFAULT, "malloc");
  Dl_info info{};
  if (malloc_at == nullptr || ::dladdr(malloc_at, &info) == 0 || info.dli_fname == nullptr) {
    return "unknown";
  }
  std::string_view file(info.dli_fname);
  if (const auto slash = file.rfind('/'); slash != std::string_view::npos) {
    file.remove_prefix(slash + 1);
  }
  using Mallctl = int (*)(const char*, void*, std::size_t*, void*, std::size_t);
  const auto mallctl = reinterpret_cast<Mallctl>(::dlsym(RTLD_DEFAULT, "mallctl"));
  const char* version = nullptr;
  std::size_t size = sizeof version;
  if (file.starts_with("libjemalloc") && mallctl != nullptr &&
      mallctl("version", &version, &size, nullptr, 0) == 0 && version != nullptr) {
    return "jemalloc " + std::string(version);
  }
  return std::string(file);
}

}  // namespace idres

// libFuzzer target: the document normalizer on arbitrary bytes (see fuzz_check.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/normalize/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  idres::fuzz::Check("passport", std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}

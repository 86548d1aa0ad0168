// libFuzzer target: the phone normalizer on arbitrary bytes (see
// fuzz_check.h). The first byte picks the region, including none and junk.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/normalize/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static constexpr std::string_view kRegions[] = {"",   "DE", "US", "GB", "IN",  "EG", "JP",
                                                  "BR", "de", "ZZ", "XX", "001", "D",  "\xff"};
  if (size == 0) return 0;
  const std::string_view region = kRegions[data[0] % std::size(kRegions)];
  idres::fuzz::Check("phone", std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1),
                     region);
  return 0;
}

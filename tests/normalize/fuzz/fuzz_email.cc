// libFuzzer target: the email normalizer on arbitrary bytes (see
// fuzz_check.h), and for ASCII input the fast path must agree with ICU.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "normalize/detail/email_domain.h"
#include "tests/normalize/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace nd = idres::normalize_detail;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto result = idres::fuzz::Check("email", input);
  // Only inputs that passed the shared prechecks reach the kinds.
  const bool prechecked = std::holds_alternative<idres::Identifier>(result) ||
                          std::get<idres::Rejection>(result).reason.rfind("the value ", 0) != 0;
  if (prechecked && nd::IsAscii(input)) {
    const auto fast = nd::NormalizeEmailWith(input, {}, true);
    const auto slow = nd::NormalizeEmailWith(input, {}, false);
    if (fast.value != slow.value || fast.reason != slow.reason) {
      idres::fuzz::Fail("fast path disagrees with ICU", input, fast.value + " | " + slow.value);
    }
  }
  return 0;
}

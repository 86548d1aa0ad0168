// Shared properties every normalizer must keep on any input, checked by the
// libFuzzer targets beside this file: no crash, no exception, a Rejection
// with the raw input or an Identifier whose value is valid UTF-8 without
// control characters, non-empty, and a fixed point (normalizing it again
// gives it back). A broken property aborts, which libFuzzer reports.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "normalize/detail/utf8.h"
#include "normalize/normalizer.h"

namespace idres::fuzz {

// The types the targets name, each as its kind.
inline const Normalizer& TheNormalizer() {
  static const Normalizer normalizer([] {
    NormalizerConfig config;
    config.kinds = {{"address", NormalizerKind::kAddress}, {"birth_date", NormalizerKind::kDate},
                    {"passport", NormalizerKind::kDocument}, {"email", NormalizerKind::kEmail},
                    {"name", NormalizerKind::kName},         {"cookie", NormalizerKind::kOpaque},
                    {"phone", NormalizerKind::kPhone},       {"postal_code", NormalizerKind::kPostalCode},
                    {"city", NormalizerKind::kText},         {"organization", NormalizerKind::kOrganization}};
    return config;
  }());
  return normalizer;
}

[[noreturn]] inline void Fail(const char* what, std::string_view input, std::string_view value) {
  std::fprintf(stderr, "property broken: %s\n  input: [%.*s]\n  value: [%.*s]\n", what,
               static_cast<int>(input.size()), input.data(), static_cast<int>(value.size()),
               value.data());
  std::abort();
}

// Normalizes `input` as `type` and checks the properties; returns the result.
inline NormalizeResult Check(std::string_view type, std::string_view input,
                             std::string_view region = {}) {
  const NormalizeResult result = TheNormalizer().Normalize(type, input, region);
  if (const auto* rejection = std::get_if<Rejection>(&result)) {
    if (rejection->input != input || rejection->reason.empty()) Fail("rejection", input, "");
    return result;
  }
  const std::string& value = std::get<Identifier>(result).value;
  if (value.empty()) Fail("empty value", input, value);
  if (!normalize_detail::IsValidUtf8(value)) Fail("invalid UTF-8 out", input, value);
  if (normalize_detail::HasControl(value)) Fail("control character out", input, value);
  const NormalizeResult again = TheNormalizer().Normalize(type, value, region);
  const auto* same = std::get_if<Identifier>(&again);
  if (same == nullptr) Fail("normalized value rejected when normalized again", input, value);
  if (same->value != value) Fail("not idempotent", input, same->value);
  return result;
}

}  // namespace idres::fuzz

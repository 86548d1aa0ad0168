// What a fuzz target does when its parser breaks a property: says which,
// with the input, and aborts (libFuzzer then keeps the input as a crash;
// tests/fuzz/replay_main.cc fails). Test-only.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace idres::fuzz {

[[noreturn]] inline void Broken(const char* property, std::string_view input) {
  std::fprintf(stderr, "property broken: %s\n  input (%zu bytes): [%.*s]\n", property,
               input.size(), static_cast<int>(input.size()), input.data());
  std::abort();
}

// Breaks unless `holds`.
inline void Expect(bool holds, const char* property, std::string_view input) {
  if (!holds) Broken(property, input);
}

}  // namespace idres::fuzz

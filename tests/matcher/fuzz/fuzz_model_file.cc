// Fuzz target: the model file (matcher/model_file.h, `idres serve
// --model`). A model that reads prints (ModelToToml) as a file that reads
// back to the same print; a file that does not read is refused with a
// reason. Never a crash.
#include <cstdint>
#include <string_view>

#include "matcher/model_file.h"
#include "tests/fuzz/property.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using idres::fuzz::Expect;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parsed = idres::ParseModel(input);
  if (const auto* error = std::get_if<std::string>(&parsed)) {
    Expect(!error->empty(), "a refusal has a reason", input);
    return 0;
  }
  const std::string printed = idres::ModelToToml(std::get<idres::Model>(parsed));
  const auto again = idres::ParseModel(printed);
  Expect(std::holds_alternative<idres::Model>(again), "a printed model reads back", input);
  Expect(idres::ModelToToml(std::get<idres::Model>(again)) == printed,
         "a printed model reads back to the same print", input);
  return 0;
}

// Fuzz target: `idres import`'s NDJSON record reader (batch/ndjson_record.h)
// on one line. A record that reads, written back in the same shape, reads to
// the same record; a line that does not read is refused with a reason.
// Never a crash.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "batch/ndjson_record.h"
#include "tests/fuzz/property.h"

namespace {

nlohmann::json Written(const idres::Record& record) {
  nlohmann::json identifiers = nlohmann::json::array();
  for (const auto& i : record.identifiers) identifiers.push_back({{"type", i.type}, {"value", i.value}});
  nlohmann::json traits = nlohmann::json::object();
  for (const auto& [key, value] : record.traits) {
    const std::string& name = key;  // clang 14 captures no structured binding
    std::visit([&traits, &name](const auto& v) { traits[name] = v; }, value);
  }
  return {{"identifiers", identifiers}, {"traits", traits},
          {"defaultRegion", record.default_region}, {"source", record.source},
          {"recordId", record.record_id}};
}

bool Same(const idres::Record& a, const idres::Record& b) {
  if (a.identifiers.size() != b.identifiers.size()) return false;
  for (std::size_t i = 0; i < a.identifiers.size(); ++i) {
    if (a.identifiers[i].type != b.identifiers[i].type ||
        a.identifiers[i].value != b.identifiers[i].value) {
      return false;
    }
  }
  return a.traits == b.traits && a.default_region == b.default_region && a.source == b.source &&
         a.record_id == b.record_id;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using idres::fuzz::Expect;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parsed = idres::batch::ParseNdjsonRecord(input);
  if (const auto* reason = std::get_if<std::string>(&parsed)) {
    Expect(!reason->empty(), "a refusal has a reason", input);
    return 0;
  }
  const idres::Record& record = std::get<idres::Record>(parsed);
  const auto again = idres::batch::ParseNdjsonRecord(Written(record).dump());
  Expect(std::holds_alternative<idres::Record>(again), "a record written back reads", input);
  Expect(Same(record, std::get<idres::Record>(again)), "a record written back reads the same",
         input);
  return 0;
}

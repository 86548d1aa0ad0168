#include "batch/checkpoint.h"

#include <nlohmann/json.hpp>

#include <fstream>

#include "base/atomic_file.h"
#include "normalize/utf8.h"

namespace idres::batch {

std::string AsStored(const std::string& fingerprint) { return ToValidUtf8(fingerprint); }

std::optional<std::string> WriteCheckpoint(const std::string& path, const Checkpoint& checkpoint) {
  nlohmann::json doc = {
      {"fingerprint", AsStored(checkpoint.fingerprint)},
      {"file_index", checkpoint.file_index},
      {"offset", checkpoint.offset},
      {"dead_letter_bytes", checkpoint.dead_letter_bytes},
      {"complete", checkpoint.complete},
      {"summary", nlohmann::json::parse(checkpoint.summary.ToJson())},
  };
  std::string data = doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  return ReplaceFile(path, data);
}

std::variant<Checkpoint, std::string> ReadCheckpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "no checkpoint file " + path;
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return path + " is not a checkpoint";
  try {
    Checkpoint c;
    c.fingerprint = doc.at("fingerprint").get<std::string>();
    c.file_index = doc.at("file_index").get<std::size_t>();
    c.offset = doc.at("offset").get<std::uint64_t>();
    c.dead_letter_bytes = doc.at("dead_letter_bytes").get<std::uint64_t>();
    c.complete = doc.at("complete").get<bool>();
    auto summary = ImportSummary::FromJson(doc.at("summary").dump());
    if (!summary) return path + " has no valid summary";
    c.summary = *summary;
    return c;
  } catch (const nlohmann::json::exception&) {
    return path + " is not a checkpoint";
  }
}

}  // namespace idres::batch

#include "matcher/store_fingerprint.h"

namespace idres {

std::vector<std::string> ExclusiveTypes(const Model& model) {
  std::vector<std::string> out;
  for (const auto& [type, t] : model.types) {
    if (t.exclusive) out.push_back(type);  // the map is sorted
  }
  return out;
}

std::string StoreFingerprint(const Model& model) {
  std::string out = "key derivations v" + std::to_string(kKeyDerivationVersion) + "\nexclusive:";
  for (const std::string& type : ExclusiveTypes(model)) out += " " + type;
  out += "\n";
  for (const BlockingRule& rule : model.blocking) {
    out += "blocking " + rule.name + ":";
    for (const std::string& part : rule.parts) out += " " + part;
    out += "\n";
  }
  return out;
}

}  // namespace idres

#include "matcher/model_file.h"

#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <iomanip>
#include <set>
#include <sstream>
#include <utility>

#include "matcher/comparisons.h"

namespace idres {
namespace {

constexpr std::array<std::pair<NormalizerKind, const char*>, 10> kKinds = {{
    {NormalizerKind::kEmail, "email"},
    {NormalizerKind::kPhone, "phone"},
    {NormalizerKind::kOpaque, "opaque"},
    {NormalizerKind::kName, "name"},
    {NormalizerKind::kDate, "date"},
    {NormalizerKind::kPostalCode, "postal_code"},
    {NormalizerKind::kAddress, "address"},
    {NormalizerKind::kDocument, "document"},
    {NormalizerKind::kText, "text"},
    {NormalizerKind::kOrganization, "organization"},
}};

const char* KindName(NormalizerKind kind) {
  for (const auto& [k, name] : kKinds) {
    if (k == kind) return name;
  }
  return "opaque";
}

// The comparison a kind brings when the file names none.
ComparisonKind DefaultComparison(NormalizerKind kind) {
  switch (kind) {
    case NormalizerKind::kEmail:
      return ComparisonKind::kEmail;
    case NormalizerKind::kPhone:
      return ComparisonKind::kPhone;
    case NormalizerKind::kName:
      return ComparisonKind::kName;
    case NormalizerKind::kDate:
      return ComparisonKind::kBirthDate;
    case NormalizerKind::kPostalCode:
      return ComparisonKind::kPostalCode;
    case NormalizerKind::kAddress:
      return ComparisonKind::kAddress;
    case NormalizerKind::kDocument:
      return ComparisonKind::kDocument;
    case NormalizerKind::kText:
      return ComparisonKind::kText;
    case NormalizerKind::kOrganization:
      return ComparisonKind::kOrganization;
    default:
      return ComparisonKind::kOpaque;
  }
}

// Neutral levels for a new type of `kind`: every level weighs 0 until the
// file says otherwise.
std::vector<Level> NeutralLevels(ComparisonKind kind) {
  std::vector<Level> out;
  for (const std::string& name : LevelNames(kind)) out.push_back({name, 0.5, 0.5});
  return out;
}

template <typename T>
bool Read(const toml::table& t, const char* key, T* out, std::string* error,
          const std::string& at) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return true;
  if (auto v = n->value<T>()) {
    *out = *v;
    return true;
  }
  *error = at + "." + key + ": wrong type";
  return false;
}

// The levels a file names, by name, over `type`'s current ones: a level it
// does not name keeps its numbers, so a file written before a level was
// added still loads, the new level weighing as built in.
std::string ApplyLevels(const std::string& at, const toml::node& levels, TypeModel& type) {
  const toml::array* a = levels.as_array();
  if (a == nullptr) return at + ".levels: an array of tables expected";
  std::set<std::string> named;
  std::string error;
  for (const toml::node& l : *a) {
    const toml::table* lt = l.as_table();
    std::string name;
    if (lt == nullptr) return at + ".levels: an array of tables expected";
    if (!Read(*lt, "name", &name, &error, at + ".levels")) return error;
    const auto level = std::find_if(type.levels.begin(), type.levels.end(),
                                    [&](const Level& x) { return x.name == name; });
    if (level == type.levels.end()) {
      std::string known;
      for (const Level& x : type.levels) known += (known.empty() ? "" : ", ") + x.name;
      return at + ".levels: unknown level \"" + name + "\" (its comparison's levels: " + known +
             ")";
    }
    if (!named.insert(name).second) return at + ".levels: level " + name + " named twice";
    if (!Read(*lt, "m", &level->m, &error, at + ".levels") ||
        !Read(*lt, "u", &level->u, &error, at + ".levels")) {
      return error;
    }
  }
  return {};
}

std::string ApplyType(const std::string& name, const toml::table& t, Model& model) {
  const std::string at = "types." + name;
  auto [it, fresh] = model.types.try_emplace(name);
  TypeModel& type = it->second;
  std::string error;
  std::string kind, comparison;
  if (!Read(t, "kind", &kind, &error, at)) return error;
  if (fresh && kind.empty()) return at + ": a new type needs a kind";
  if (!kind.empty()) {
    const auto known =
        std::find_if(kKinds.begin(), kKinds.end(), [&](const auto& k) { return kind == k.second; });
    if (known == kKinds.end()) return at + ".kind: unknown kind " + kind;
    type.kind = known->first;
    if (fresh) type.comparison = DefaultComparison(type.kind);
  }
  if (!Read(t, "comparison", &comparison, &error, at)) return error;
  if (!comparison.empty() && !ParseComparison(comparison, &type.comparison)) {
    return at + ".comparison: unknown comparison " + comparison;
  }
  if (fresh || !comparison.empty()) type.levels = NeutralLevels(type.comparison);
  std::int64_t cap = static_cast<std::int64_t>(type.generic_cap);
  if (!Read(t, "exclusive", &type.exclusive, &error, at) ||
      !Read(t, "strong", &type.strong, &error, at) || !Read(t, "group", &type.group, &error, at) ||
      !Read(t, "entity", &type.entity, &error, at) || !Read(t, "generic_cap", &cap, &error, at)) {
    return error;
  }
  if (cap < 1) return at + ".generic_cap: must be at least 1";
  type.generic_cap = static_cast<std::size_t>(cap);
  if (const toml::node* levels = t.get("levels")) return ApplyLevels(at, *levels, type);
  return {};
}

std::string Apply(const toml::table& root, Model& model) {
  std::string error;
  std::int64_t max_keys = static_cast<std::int64_t>(model.max_keys);
  std::int64_t key_cap = static_cast<std::int64_t>(model.key_cap);
  std::int64_t max_candidates = static_cast<std::int64_t>(model.max_candidates);
  if (!Read(root, "threshold", &model.threshold, &error, "model") ||
      !Read(root, "review_threshold", &model.review_threshold, &error, "model") ||
      !Read(root, "max_keys", &max_keys, &error, "model") ||
      !Read(root, "key_cap", &key_cap, &error, "model") ||
      !Read(root, "max_candidates", &max_candidates, &error, "model")) {
    return error;
  }
  if (max_keys < 1 || key_cap < 1 || max_candidates < 1) {
    return "max_keys, key_cap and max_candidates must be at least 1";
  }
  model.max_keys = static_cast<std::size_t>(max_keys);
  model.key_cap = static_cast<std::size_t>(key_cap);
  model.max_candidates = static_cast<std::size_t>(max_candidates);
  if (const toml::table* types = root["types"].as_table()) {
    for (const auto& [key, node] : *types) {
      const toml::table* t = node.as_table();
      if (t == nullptr) return "types." + std::string(key.str()) + ": a table expected";
      if (auto e = ApplyType(std::string(key.str()), *t, model); !e.empty()) return e;
    }
  }
  if (const toml::node* blocking = root.get("blocking")) {
    const toml::array* a = blocking->as_array();
    if (a == nullptr) return "blocking: an array of tables expected";
    model.blocking.clear();
    for (const toml::node& r : *a) {
      const toml::table* rt = r.as_table();
      if (rt == nullptr) return "blocking: an array of tables expected";
      BlockingRule rule;
      if (!Read(*rt, "name", &rule.name, &error, "blocking")) return error;
      if (const toml::array* parts = (*rt)["parts"].as_array()) {
        for (const toml::node& p : *parts) {
          if (auto s = p.value<std::string>()) rule.parts.push_back(*s);
        }
      }
      model.blocking.push_back(std::move(rule));
    }
  }
  for (const auto& [key, node] : root) {
    const std::string k(key.str());
    if (k != "threshold" && k != "review_threshold" && k != "max_keys" && k != "key_cap" &&
        k != "max_candidates" && k != "types" && k != "blocking") {
      return "unknown key " + k;
    }
  }
  return model.Problem();
}

// The shortest text that reads back as exactly `v`, always a TOML float.
std::string Number(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::variant<Model, std::string> ParseModel(std::string_view text) {
  Model model = Model::Defaults();
  try {
    const toml::table root = toml::parse(text);
    if (std::string e = Apply(root, model); !e.empty()) return e;
  } catch (const toml::parse_error& e) {
    std::ostringstream out;
    out << e.description() << " (line " << e.source().begin.line << ", column "
        << e.source().begin.column << ")";
    return out.str();
  }
  return model;
}

std::variant<Model, std::string> LoadModelFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read the model file " + path;
  std::ostringstream text;
  text << in.rdbuf();
  auto result = ParseModel(text.str());
  if (auto* e = std::get_if<std::string>(&result)) *e = path + ": " + *e;
  return result;
}

std::string ModelToToml(const Model& model, const LevelNotes& notes) {
  std::ostringstream out;
  out << "# idres matching model. weight = log2(m / u); a person matches at the threshold.\n"
      << "threshold = " << Number(model.threshold)
      << "\nreview_threshold = " << Number(model.review_threshold)
      << "  # from here up to the threshold: a possible match\nmax_keys = " << model.max_keys
      << "\nkey_cap = " << model.key_cap << "\nmax_candidates = " << model.max_candidates
      << "  # per record, met through blocking keys alone\n";
  for (const auto& [name, t] : model.types) {
    out << "\n[types." << name << "]\nkind = \"" << KindName(t.kind) << "\"\ncomparison = \""
        << ComparisonName(t.comparison) << "\"\nexclusive = " << (t.exclusive ? "true" : "false")
        << "\nstrong = " << (t.strong ? "true" : "false") << "\ngeneric_cap = " << t.generic_cap
        << "\ngroup = \"" << t.group << "\"\nentity = \"" << t.entity << "\"\nlevels = [\n";
    const auto noted = notes.find(name);
    for (std::size_t i = 0; i < t.levels.size(); ++i) {
      const Level& l = t.levels[i];
      out << "  { name = \"" << l.name << "\", m = " << Number(l.m) << ", u = " << Number(l.u)
          << " },  # weight " << std::fixed << std::setprecision(2) << l.weight()
          << std::defaultfloat;
      if (noted != notes.end() && i < noted->second.size() && !noted->second[i].empty()) {
        out << "; " << noted->second[i];
      }
      out << "\n";
    }
    out << "]\n";
  }
  for (const BlockingRule& r : model.blocking) {
    out << "\n[[blocking]]\nname = \"" << r.name << "\"\nparts = [";
    for (std::size_t i = 0; i < r.parts.size(); ++i) {
      out << (i ? ", " : "") << "\"" << r.parts[i] << "\"";
    }
    out << "]\n";
  }
  return out.str();
}

}  // namespace idres

#include "matcher/model.h"

#include <cmath>
#include <initializer_list>
#include <set>

#include "matcher/comparisons.h"

namespace idres {
namespace {

struct LevelSpec {
  const char* name;
  double m, u;
};

TypeModel Type(NormalizerKind kind, ComparisonKind comparison,
               std::initializer_list<LevelSpec> levels, std::size_t cap, std::string group = {}) {
  TypeModel t;
  t.kind = kind;
  t.comparison = comparison;
  for (const LevelSpec& l : levels) t.levels.push_back({l.name, l.m, l.u});
  t.generic_cap = cap;
  t.group = std::move(group);
  return t;
}

TypeModel Strong(TypeModel t) {
  t.strong = true;
  return t;
}

// An opaque id: exact agreement all but proves one person; a different value
// says nothing (a person has many cookies and devices).
TypeModel OpaqueId() {
  return Strong(Type(NormalizerKind::kOpaque, ComparisonKind::kOpaque,
                     {{"exact", 0.9, 1e-6}, {"different", 0.5, 0.5}}, 5));
}

// A document number: a typo is one edit; a different number of the same
// type is strong evidence of a different person.
TypeModel Document() {
  return Strong(Type(NormalizerKind::kDocument, ComparisonKind::kDocument,
                     {{"exact", 0.9, 1e-7}, {"one_edit", 0.05, 1e-5}, {"different", 2e-5, 0.99998}},
                     5));
}

const std::set<std::string>& Derivations(ComparisonKind kind) {
  static const std::set<std::string> kName = {"value",
                                              "surname",
                                              "phonetic",
                                              "given_class",
                                              "initials",
                                              "sorted",
                                              "given_surname_prefix",
                                              "surname_given_initial"};
  static const std::set<std::string> kDate = {"value", "year", "month", "month_day"};
  static const std::set<std::string> kEmail = {"value", "local"};
  static const std::set<std::string> kAddress = {"value", "street"};
  static const std::set<std::string> kOrganization = {"value", "core", "phonetic"};
  static const std::set<std::string> kValue = {"value"};
  switch (kind) {
    case ComparisonKind::kOrganization:
      return kOrganization;
    case ComparisonKind::kName:
      return kName;
    case ComparisonKind::kBirthDate:
      return kDate;
    case ComparisonKind::kAddress:
      return kAddress;
    case ComparisonKind::kEmail:
      return kEmail;
    default:
      return kValue;
  }
}

using TypeMap = std::map<std::string, TypeModel, std::less<>>;

void AddContactTypes(TypeMap& t) {
  // Email, phone and address: a household or an office shares them, so
  // together they are one piece of evidence (group "contact"), and alone
  // they stay below the threshold: a shared one matches only when nothing
  // speaks against it (Model::threshold, docs/matching.md "Decision").
  t["email"] = Strong(Type(NormalizerKind::kEmail, ComparisonKind::kEmail,
                           {{"exact", 0.8, 1e-4},
                            {"one_edit", 0.05, 2e-4},
                            {"similar", 0.1, 2e-4},
                            {"different", 0.05, 0.99}},
                           5, "contact"));
  t["phone"] = Strong(Type(NormalizerKind::kPhone, ComparisonKind::kPhone,
                           {{"exact", 0.7, 1e-4}, {"different", 0.2, 0.99}}, 5, "contact"));
  t["address"] = Type(NormalizerKind::kAddress, ComparisonKind::kAddress,
                      {{"exact", 0.4, 1e-4},
                       {"house_and_street", 0.1, 1e-4},
                       {"postal_code_only", 0.3, 1e-3},
                       {"different", 0.15, 0.99}},
                      10, "contact");
  t["postal_code"] = Type(NormalizerKind::kPostalCode, ComparisonKind::kPostalCode,
                          {{"exact", 0.8, 1e-3}, {"different", 0.2, 0.99}}, 1000, "contact");
  // A town or city: shared by many (term frequency weighs London down), a
  // typo is still the same place, and moving house makes it differ.
  t["city"] = Type(NormalizerKind::kText, ComparisonKind::kText,
                   {{"exact", 0.7, 5e-3}, {"similar", 0.15, 2e-3}, {"different", 0.1, 0.99}}, 1000,
                   "contact");
}

void AddPersonTypes(TypeMap& t) {
  // A name: strong when whole, weak as a single word; a relative (the same
  // surname, a clearly different given name) or another generation (Jr /
  // Sr) is strong evidence against, stronger than a shared birth date and
  // address together.
  t["name"] = Type(NormalizerKind::kName, ComparisonKind::kName,
                   {{"exact", 0.4, 3.5e-5},
                    {"reordered", 0.05, 5e-6},
                    {"subset", 0.05, 1e-5},
                    {"nickname", 0.05, 1e-5},
                    {"initial", 0.02, 2e-5},
                    {"jaro_winkler_92", 0.2, 2e-5},
                    {"jaro_winkler_88", 0.04, 3e-5},
                    {"garbled", 0.06, 1e-4},
                    {"single_token", 0.1, 1e-3},
                    {"surname_only", 1e-6, 1e-2},
                    {"suffix_differs", 1e-6, 3e-3},
                    {"different", 0.12, 0.99}},
                   50);
  t["name"].entity = "person";
  // A birth date: a typo is one or two of its parts off; a date further
  // apart is another person's, never evidence for a match. A date a few
  // weeks apart, or a year alone one from the other's year, weighs a little
  // against: in the shared data sets one person's slips and estimated years
  // and namesakes' dates all write such dates.
  t["birth_date"] = Type(NormalizerKind::kDate, ComparisonKind::kBirthDate,
                         {{"exact", 0.8, 7e-5},
                          {"day_month_swapped", 0.01, 2e-5},
                          {"one_off", 0.1, 1e-3},
                          {"two_off", 0.02, 8e-3},
                          {"same_year", 0.1, 4e-3},
                          {"year_one_off", 0.02, 0.025},
                          {"weeks_apart", 0.02, 0.025},
                          {"different", 0.03, 0.9},
                          {"generation", 1e-5, 0.08}},
                         1000);
}

void AddOrganizationAndIdTypes(TypeMap& t) {
  // An organization: its name with or without its legal form is one
  // company; two companies at one address (an office building) are two.
  t["organization"] = Type(NormalizerKind::kOrganization, ComparisonKind::kOrganization,
                           {{"exact", 0.8, 6e-5},
                            {"same_core", 0.15, 2e-5},
                            {"similar", 0.04, 1e-4},
                            {"different", 0.01, 0.95}},
                           50);
  t["organization"].entity = "organization";
  t["cookie"] = OpaqueId();
  t["device_id"] = OpaqueId();
  t["customer_id"] = OpaqueId();
  t["customer_id"].exclusive = true;
  for (const char* doc : {"passport", "drivers_license", "national_id", "tax_id"}) {
    t[doc] = Document();
  }
}

std::vector<BlockingRule> DefaultBlocking() {
  return {
      {"name_phonetic_year", {"name.phonetic", "birth_date.year"}},
      {"name_phonetic_month_day", {"name.phonetic", "birth_date.month_day"}},
      {"given_class_surname_date", {"name.given_class", "name.surname", "birth_date.value"}},
      {"given_class_surname", {"name.given_class", "name.surname"}},
      {"name_sorted", {"name.sorted"}},
      {"given_surname_prefix", {"name.given_surname_prefix"}},
      {"surname_given_initial", {"name.surname_given_initial"}},
      {"date_initials", {"birth_date.value", "name.initials"}},
      {"email_local", {"email.local"}},
      {"email_local_year", {"email.local", "birth_date.year"}},
      {"postal_code_initials", {"postal_code.value", "name.initials"}},
      {"date_postal_code", {"birth_date.value", "postal_code.value"}},
      {"street", {"address.street"}},
      {"name_phonetic_city", {"name.phonetic", "city.value"}},
      {"date_city", {"birth_date.value", "city.value"}},
      {"organization_core", {"organization.core"}},
      {"organization_phonetic_postal_code", {"organization.phonetic", "postal_code.value"}},
      {"organization_phonetic_city", {"organization.phonetic", "city.value"}},
  };
}

}  // namespace

double Level::weight() const { return std::log2(m / u); }

Model Model::Defaults() {
  Model model;
  AddContactTypes(model.types);
  AddPersonTypes(model.types);
  AddOrganizationAndIdTypes(model.types);
  model.blocking = DefaultBlocking();
  return model;
}

const TypeModel* Model::Find(std::string_view type) const {
  auto it = types.find(type);
  return it == types.end() ? nullptr : &it->second;
}

bool Model::Exclusive(std::string_view type) const {
  const TypeModel* t = Find(type);
  return t != nullptr && t->exclusive;
}

std::map<std::string, NormalizerKind, std::less<>> Model::NormalizerKinds() const {
  std::map<std::string, NormalizerKind, std::less<>> kinds;
  for (const auto& [name, t] : types) kinds[name] = t.kind;
  return kinds;
}

NormalizerConfig Model::Normalizing(NormalizerConfig config) const {
  for (const auto& [name, t] : types) config.kinds[name] = t.kind;
  return config;
}

std::string Model::Problem() const {
  for (const auto& [name, t] : types) {
    const auto& want = LevelNames(t.comparison);
    if (t.levels.size() != want.size()) return "type " + name + ": wrong number of levels";
    for (std::size_t i = 0; i < want.size(); ++i) {
      const Level& l = t.levels[i];
      if (l.name != want[i]) return "type " + name + ": level " + want[i] + " expected";
      if (!(l.m > 0 && l.m <= 1 && l.u > 0 && l.u <= 1)) {
        return "type " + name + ", level " + l.name + ": m and u must be in (0, 1]";
      }
    }
    if (t.generic_cap == 0) return "type " + name + ": generic_cap must be at least 1";
  }
  for (const BlockingRule& rule : blocking) {
    if (rule.parts.empty()) return "blocking rule " + rule.name + " has no parts";
    for (const std::string& part : rule.parts) {
      const std::size_t dot = part.find('.');
      const TypeModel* t = dot == std::string::npos ? nullptr : Find(part.substr(0, dot));
      if (t == nullptr || !Derivations(t->comparison).contains(part.substr(dot + 1))) {
        return "blocking rule " + rule.name + ": unknown part " + part;
      }
    }
  }
  if (!(threshold > 0)) return "threshold must be positive";
  if (!(review_threshold <= threshold)) return "review_threshold must not exceed threshold";
  return {};
}

}  // namespace idres

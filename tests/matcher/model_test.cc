#include "matcher/model.h"

#include <catch2/catch.hpp>

#include "matcher/model_file.h"

namespace idres {
namespace {

TEST_CASE("the built-in model is usable and says what docs/matching.md says", "[matcher]") {
  const Model m = Model::Defaults();
  CHECK(m.Problem().empty());
  CHECK(m.Exclusive("customer_id"));
  CHECK_FALSE(m.Exclusive("email"));  // shared in real life: a family, an office
  CHECK(m.Find("email")->strong);
  CHECK_FALSE(m.Find("name")->strong);
  CHECK(m.Find("email")->generic_cap == 5);
  for (const char* doc :
       {"passport", "drivers_license", "national_id", "tax_id", "address", "city"}) {
    CHECK(m.Find(doc) != nullptr);
  }
  // Evidence against is negative; exact agreement on a document is strong.
  CHECK(m.Find("birth_date")->levels.back().weight() < -5);
  // A birth date past the typo levels is never evidence for a match.
  for (const Level& l : m.Find("birth_date")->levels) {
    if (l.name == "year_one_off" || l.name == "weeks_apart" || l.name == "different") {
      CHECK(l.weight() < 0);
    }
  }
  CHECK(m.Find("passport")->levels.front().weight() > m.threshold);
  CHECK(m.Find("passport")->levels.back().weight() < -10);
  CHECK(m.Find("cookie")->levels.back().weight() == Approx(0.0));
}

TEST_CASE("the model is the one list of types: the normalizer names none of its own", "[matcher]") {
  // Two lists would normalize a type one way in the engine and another in
  // a command that read the other list.
  CHECK(NormalizerConfig::Defaults().kinds.empty());
  const auto kinds = Model::Defaults().NormalizerKinds();
  CHECK(kinds.at("city") == NormalizerKind::kText);
  CHECK(kinds.at("name") == NormalizerKind::kName);
  CHECK(kinds.at("organization") == NormalizerKind::kOrganization);
}

TEST_CASE("the printed model reads back to the same model", "[matcher]") {
  // Changed from the defaults in every kind of field, so a parser that
  // ignored its input (and kept the defaults) would fail.
  Model m = Model::Defaults();
  m.threshold = 13.5;
  m.review_threshold = 4.25;
  m.key_cap = 42;
  m.max_candidates = 7;
  m.types["email"].exclusive = true;
  m.types["email"].generic_cap = 3;
  m.types["email"].group = "mail";
  m.types["name"].levels[2].m = 0.0123456789;  // more digits than a short print keeps
  m.types["cookie"].strong = false;
  m.blocking = {{"surname_year", {"name.surname", "birth_date.year"}}};
  const auto back = ParseModel(ModelToToml(m));
  REQUIRE(std::holds_alternative<Model>(back));
  const Model& b = std::get<Model>(back);
  CHECK(ModelToToml(b) == ModelToToml(m));
  CHECK(b.threshold == 13.5);
  CHECK(b.review_threshold == 4.25);
  CHECK(b.key_cap == 42);
  CHECK(b.max_candidates == 7);
  CHECK(b.Exclusive("email"));
  CHECK(b.Find("email")->generic_cap == 3);
  CHECK(b.Find("email")->group == "mail");
  CHECK(b.Find("name")->levels[2].m == 0.0123456789);
  CHECK_FALSE(b.Find("cookie")->strong);
  REQUIRE(b.blocking.size() == 1);
  CHECK(b.blocking[0].parts == std::vector<std::string>{"name.surname", "birth_date.year"});
}

TEST_CASE("a model file adds a type without code and changes what it names", "[matcher]") {
  const auto parsed = ParseModel(R"(
threshold = 12.5
[types.loyalty_id]
kind = "opaque"
strong = true
levels = [{ name = "exact", m = 0.9, u = 1e-6 }, { name = "different", m = 0.5, u = 0.5 }]
[types.email]
exclusive = true
)");
  REQUIRE(std::holds_alternative<Model>(parsed));
  const Model& m = std::get<Model>(parsed);
  CHECK(m.threshold == 12.5);
  REQUIRE(m.Find("loyalty_id") != nullptr);
  CHECK(m.Find("loyalty_id")->strong);
  CHECK(m.NormalizerKinds().at("loyalty_id") == NormalizerKind::kOpaque);
  CHECK(m.Exclusive("email"));
  CHECK(m.Find("email")->levels.size() == 4);  // untouched
}

TEST_CASE("a model file's levels are read by name: one that names fewer still loads", "[matcher]") {
  // A file written before a level was added (or one that sets a single
  // level): the levels it does not name keep the built-in numbers.
  const auto parsed = ParseModel(R"(
[types.birth_date]
levels = [{ name = "different", m = 0.05, u = 0.9 }, { name = "exact", m = 0.7, u = 1e-4 }]
)");
  REQUIRE(std::holds_alternative<Model>(parsed));
  const Model& m = std::get<Model>(parsed);
  const Model built_in = Model::Defaults();
  const auto& levels = m.Find("birth_date")->levels;
  REQUIRE(levels.size() == built_in.Find("birth_date")->levels.size());
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const Level& want = built_in.Find("birth_date")->levels[i];
    CHECK(levels[i].name == want.name);
    if (levels[i].name == "different") {
      CHECK(levels[i].m == 0.05);
    } else if (levels[i].name == "exact") {
      CHECK(levels[i].u == 1e-4);
    } else {
      CHECK(levels[i].m == want.m);
      CHECK(levels[i].u == want.u);
    }
  }
}

TEST_CASE("a bad model file is refused with the reason", "[matcher]") {
  const auto Error = [](const char* toml) {
    const auto r = ParseModel(toml);
    REQUIRE(std::holds_alternative<std::string>(r));
    return std::get<std::string>(r);
  };
  CHECK_THAT(Error("threshold = "), Catch::Contains("line 1"));
  CHECK_THAT(Error("[types.x]\nstrong = true"), Catch::Contains("needs a kind"));
  CHECK_THAT(Error("[types.x]\nkind = \"shoe\""), Catch::Contains("unknown kind"));
  CHECK_THAT(Error("[types.email]\nlevels = [{ name = \"exact\", m = 2.0, u = 0.1 }]"),
             Catch::Contains("m and u"));
  CHECK_THAT(Error("[types.email]\nlevels = [{ name = \"exakt\", m = 0.9, u = 0.1 }]"),
             Catch::Contains("unknown level \"exakt\""));
  CHECK_THAT(Error("[types.email]\nlevels = [{ name = \"exact\" }, { name = \"exact\" }]"),
             Catch::Contains("named twice"));
  CHECK_THAT(Error("[types.email]\nlevels = [{ name = \"exact\", m = 0.9, u = 0.0 },"
                   "{ name = \"one_edit\" }, { name = \"similar\" }, { name = \"different\" }]"),
             Catch::Contains("m and u"));
  CHECK_THAT(Error("[[blocking]]\nname = \"r\"\nparts = [\"name.shoe\"]"),
             Catch::Contains("unknown part"));
  CHECK_THAT(Error("treshold = 3"), Catch::Contains("unknown key treshold"));
  CHECK_THAT(Error("review_threshold = 15"),
             Catch::Contains("review_threshold must not exceed threshold"));
}

}  // namespace
}  // namespace idres

#include "train/prior.h"

#include <catch2/catch.hpp>

namespace idres::train {
namespace {

TEST_CASE("the prior counts the pairs the deterministic rule calls matches, once each", "[train]") {
  const Model model = Model::Defaults();
  RecordTable table(model);
  // 0 and 1 share an email (strong); 0 and 1 also share name and date:
  // still one pair. 2 and 3 share name and date; 3 and 4 only a name.
  table.Add(std::vector<Identifier>{
      {"email", "a@x.org"}, {"name", "anna weber"}, {"birth_date", "1980-01-02"}});
  table.Add(std::vector<Identifier>{
      {"email", "a@x.org"}, {"name", "anna weber"}, {"birth_date", "1980-01-02"}});
  table.Add(std::vector<Identifier>{{"name", "ben koch"}, {"birth_date", "1970-03-04"}});
  table.Add(std::vector<Identifier>{{"name", "ben koch"}, {"birth_date", "1970-03-04"}});
  table.Add(std::vector<Identifier>{{"name", "ben koch"}, {"birth_date", "1999-09-09"}});
  const Prior p = EstimatePrior(table, model, 0.5);
  CHECK(p.rule_pairs == 2);
  CHECK(p.all_pairs == 10);
  CHECK(p.recall == 0.5);
  CHECK(p.lambda == Approx(2 / 0.5 / 10));
}

TEST_CASE("a value held by more records than key_cap proves nothing", "[train]") {
  Model model = Model::Defaults();
  model.key_cap = 3;
  RecordTable table(model);
  for (int i = 0; i < 4; ++i) table.Add(std::vector<Identifier>{{"email", "info@x.org"}});
  const Prior p = EstimatePrior(table, model, 0.6);
  CHECK(p.rule_pairs == 0);
  CHECK(p.lambda == 0);
}

}  // namespace
}  // namespace idres::train

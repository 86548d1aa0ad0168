// `idres train` as a user runs it: the real binary on a store and on
// files. The same input and seed give the same model file byte for byte;
// bad input, or EM that does not converge, is a clear error naming the
// problem, and nothing is written.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/support/idres_process.h"
#include "tests/support/temp_dir.h"
#include "tests/train/labelled_sets.h"

namespace idres::testing {
namespace {

struct Run {
  int status;
  std::string log;
};

Run Train(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), {IdresBinary(), "train"});
  static int n = 0;
  const std::string log = dir.File("train" + std::to_string(++n) + ".log");
  const int status = RunToEnd(args, log);
  return {status, ReadFile(log)};
}

std::vector<std::string> FakeArgs(std::vector<std::string> more) {
  std::vector<std::string> args{DataSet("splink_fake_1000.csv")};
  for (const std::string& a : MappingArgs(Fake1000())) args.push_back(a);
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST_CASE("the same store and seed train the same model file, byte for byte", "[pg][train]") {
  TempDir dir;
  TestDatabase db;
  Import(db.url(), Fake1000(), "");
  const auto train = [&](const std::string& out, const std::string& seed) {
    const Run r = Train(dir, {"--database-url", db.url(), "--out", dir.File(out), "--seed", seed,
                              "--random-pairs", "50000"});
    INFO(r.log);
    REQUIRE(r.status == 0);
    return ReadFile(dir.File(out));
  };
  const std::string a = train("a.toml", "1");
  CHECK(train("b.toml", "1") == a);
  CHECK(train("c.toml", "2") != a);  // fewer random pairs than all: the seed chooses them
  CHECK_THAT(a, Catch::StartsWith("# Fitted by idres train from a store snapshot: 1000 records"));
}

TEST_CASE(
    "training prints its table and guidance, draws the chart, and sets the threshold "
    "only when asked",
    "[pg][train]") {
  TempDir dir;
  const Run plain = Train(dir, FakeArgs({"--out", dir.File("plain.toml")}));
  INFO(plain.log);
  REQUIRE(plain.status == 0);
  CHECK_THAT(plain.log, Catch::Contains("EM run (blocking rule)"));
  CHECK_THAT(plain.log, Catch::Contains("suggested threshold"));
  auto model = LoadModelFile(dir.File("plain.toml"));
  REQUIRE(std::holds_alternative<Model>(model));
  CHECK(std::get<Model>(model).threshold == Model::Defaults().threshold);

  const Run set = Train(dir, FakeArgs({"--out", dir.File("set.toml"), "--chart",
                                       dir.File("weights.svg"), "--set-threshold"}));
  INFO(set.log);
  REQUIRE(set.status == 0);
  CHECK_THAT(set.log, Catch::Contains("threshold set to"));
  CHECK_THAT(ReadFile(dir.File("weights.svg")), Catch::StartsWith("<svg"));
  model = LoadModelFile(dir.File("set.toml"));
  REQUIRE(std::holds_alternative<Model>(model));
  CHECK(std::get<Model>(model).threshold != Model::Defaults().threshold);
}

TEST_CASE("bad input, or EM that does not converge, is a clear error, and nothing is written",
          "[pg][train]") {
  TempDir dir;
  const std::string out = dir.File("out.toml");
  SECTION("a file with no pairs") {
    const std::string csv =
        dir.Write("two.csv", "name,email\nanna weber,a@x.org\nben koch,b@y.org\n");
    const Run r = Train(dir, {csv, "--map", "name=name", "--map", "email=email", "--out", out});
    CHECK(r.status == 1);
    CHECK_THAT(r.log, Catch::Contains("no pairs"));
  }
  SECTION("a model file naming a level its comparison does not have") {
    const std::string model = dir.Write(
        "model.toml", "[types.email]\nlevels = [{ name = \"exakt\", m = 0.9, u = 1e-4 }]\n");
    const Run r = Train(dir, FakeArgs({"--model", model, "--out", out}));
    CHECK(r.status == 2);
    CHECK_THAT(r.log, Catch::Contains("types.email.levels: unknown level \"exakt\""));
  }
  SECTION("a model file with a negative probability") {
    const std::string model = dir.Write("model.toml",
                                        "[types.phone]\nlevels = [{ name = \"exact\", m = -0.7, u "
                                        "= 1e-4 }, { name = \"different\", m = 0.2, u = 0.99 }]\n");
    const Run r = Train(dir, FakeArgs({"--model", model, "--out", out}));
    CHECK(r.status == 2);
    CHECK_THAT(r.log, Catch::Contains("type phone, level exact: m and u must be in (0, 1]"));
  }
  SECTION("--out in a missing folder") {
    const std::string missing = dir.File("no/such/folder/out.toml");
    const Run r = Train(dir, FakeArgs({"--out", missing}));
    CHECK(r.status == 2);
    CHECK_THAT(r.log, Catch::Contains("does not exist"));
    CHECK_FALSE(std::filesystem::exists(dir.File("no")));
  }
  SECTION("EM that does not converge") {
    const Run r = Train(dir, FakeArgs({"--max-iterations", "1", "--out", out}));
    CHECK(r.status == 1);
    CHECK_THAT(r.log, Catch::Contains("EM did not converge on the pairs of blocking rule") &&
                          Catch::Contains("raise --max-iterations or --tolerance"));
  }
  SECTION("a database without a store") {
    TestDatabase empty(TestDatabase::Contents::kEmpty);
    const Run r = Train(dir, {"--database-url", empty.url(), "--out", out});
    CHECK(r.status == 2);
    CHECK_THAT(r.log, Catch::Contains("no idres store"));
  }
  CHECK_FALSE(std::filesystem::exists(out));
  CHECK_FALSE(std::filesystem::exists(out + ".tmp"));
}

}  // namespace
}  // namespace idres::testing

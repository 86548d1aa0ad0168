#include "batch/progress.h"

#include <catch2/catch.hpp>

namespace idres::batch {
namespace {

TEST_CASE("a progress line shows done/total, rate, ETA and counters", "[progress]") {
  Progress progress(ProgressMode::kOff, "records");
  ProgressSnapshot s{250, 1000, 200, {{"created", 180}, {"rejected", 3}}};
  CHECK(progress.Render(s, 2.0, false) ==
        "250/1000 records (25%)  100/s  ETA 0:08  created 180  rejected 3");
  CHECK(progress.Render(s, 2.0, true).rfind("[######..................] 250/1000", 0) == 0);
  ProgressSnapshot unknown{5, 0, 5, {}};
  CHECK(progress.Render(unknown, 1.0, false) == "5 records  5/s");
}

}  // namespace
}  // namespace idres::batch

#include "bench/suite/run_spec.h"

namespace idres::bench {

ScratchDatabase RunDatabase(const SuiteContext& ctx, const RunSpec& spec, const std::string& kind) {
  return ScratchDatabase(
      ctx.cluster,
      ctx.db_prefix + "_" + kind + "_" + spec.scenario + "_" + std::to_string(spec.clients),
      spec.template_db);
}

}  // namespace idres::bench

#include "bench/suite/scratch_database.h"

#include <spdlog/spdlog.h>

namespace idres::bench {

ScratchDatabase::ScratchDatabase(const Cluster& cluster, std::string name,
                                 const std::string& template_db)
    : cluster_(cluster), name_(std::move(name)) {
  if (template_db.empty()) {
    cluster_.CreateWithSchema(name_);
  } else {
    cluster_.CreateFromTemplate(name_, template_db);
  }
}

ScratchDatabase::~ScratchDatabase() {
  try {
    cluster_.Drop(name_);
  } catch (const std::exception& e) {
    spdlog::warn("could not drop {}: {}", name_, e.what());
  }
}

}  // namespace idres::bench

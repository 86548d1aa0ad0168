// ScratchDatabase: a database that lives for one measurement: created empty
// with the schema, or cloned from a preloaded template, and dropped (its
// sessions ended) when the object goes away, also when the run threw.
// Thread-safety: none needed; owned by one run.
#pragma once

#include <string>

#include "bench/suite/cluster.h"

namespace idres::bench {

class ScratchDatabase {
 public:
  // Clones `template_db`, or when it is empty creates a store migrated for the built-in model.
  ScratchDatabase(const Cluster& cluster, std::string name, const std::string& template_db = {});
  ~ScratchDatabase();
  ScratchDatabase(const ScratchDatabase&) = delete;
  ScratchDatabase& operator=(const ScratchDatabase&) = delete;

  const std::string& name() const { return name_; }
  std::string url() const { return cluster_.Url(name_); }

 private:
  const Cluster& cluster_;
  std::string name_;
};

}  // namespace idres::bench

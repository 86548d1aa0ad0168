// Defaults and process plumbing shared by the batch commands (import,
// reconcile): the database they use when none is named, and a stop flag
// that Ctrl-C or SIGTERM raise so a job can finish its work in flight and
// leave a clean checkpoint.
#pragma once

#include <atomic>

namespace idres::batch {

// The embedded database scripts/run.sh starts (overridden by --database-url
// or IDRES_DATABASE_URL).
inline constexpr char kEmbeddedDatabaseUrl[] = "postgresql://postgres@127.0.0.1:54329/idres";

// Installs SIGINT and SIGTERM handlers that set the returned flag; a second
// signal gets the default action, so a second Ctrl-C still ends the process
// at once. Call once per process.
const std::atomic<bool>& StopOnInterrupt();

}  // namespace idres::batch

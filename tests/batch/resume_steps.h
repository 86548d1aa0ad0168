// The steps the kill -9 + --resume tests share (import_pgtest.cc for the
// database path, server_import_pgtest.cc for --server): killing the import
// child, then resuming it to the end and checking its checkpoint and dead
// letters against an uninterrupted run's.
#pragma once

#include <catch2/catch.hpp>

#include <csignal>
#include <cstdint>
#include <string>
#include <vector>

#include "batch/checkpoint.h"
#include "tests/support/idres_process.h"
#include "tests/support/temp_dir.h"

namespace idres::testing {

// SIGKILLs `child` and waits until it is gone.
inline void KillNow(ChildProcess& child) {
  child.Signal(SIGKILL);
  REQUIRE(child.Wait() == -SIGKILL);  // ended by that signal
}

// After a kill: the import `args` (checkpoint and dead letters named `tag`)
// stopped short of its `records`; run again with --resume it completes them
// all, with the same dead letters as the uninterrupted run `full_tag`: they
// are written in input order and cut back on resume, none twice.
inline void ResumeToEnd(std::vector<std::string> args, const TempDir& dir, const std::string& tag,
                        const std::string& full_tag, std::uint64_t records) {
  using batch::Checkpoint;
  Checkpoint at_kill = std::get<Checkpoint>(batch::ReadCheckpoint(dir.File(tag + ".cp")));
  CHECK_FALSE(at_kill.complete);
  CHECK(at_kill.summary.total() < records);
  args.push_back("--resume");
  REQUIRE(RunToEnd(args, dir.File("log")) == 0);
  Checkpoint done = std::get<Checkpoint>(batch::ReadCheckpoint(dir.File(tag + ".cp")));
  CHECK(done.complete);
  CHECK(done.summary.total() == records);
  CHECK(ReadFile(dir.File(tag + ".dead")) == ReadFile(dir.File(full_tag + ".dead")));
}

}  // namespace idres::testing

// What the tests that start the built `idres` binary share.
#pragma once

#include <string>
#include <string_view>

#include "process/child_process.h"

namespace idres::testing {

// From process/child_process.h.
using idres::ChildProcess;
using idres::RunToEnd;

// The `idres` binary under test (env IDRES_BINARY, which ctest sets); fails
// the test when it is unset or names no file.
std::string IdresBinary();

// Whether `log`, the output of `idres serve`, says that it serves on `port`:
// the port is then that server's, not another test's that took it first.
bool LogSaysServing(std::string_view log, int port);

}  // namespace idres::testing

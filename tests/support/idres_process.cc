#include "tests/support/idres_process.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

namespace idres::testing {

std::string IdresBinary() {
  const char* binary = std::getenv("IDRES_BINARY");
  if (binary == nullptr || *binary == '\0' || !std::filesystem::exists(binary)) {
    FAIL("IDRES_BINARY is not set to the built idres executable (ctest sets it)");
  }
  return binary;
}

bool LogSaysServing(std::string_view log, int port) {
  // api/connect/server.cc: "serving http on 127.0.0.1:<port>" (or https).
  return log.find("serving") != std::string_view::npos &&
         log.find(":" + std::to_string(port) + "\n") != std::string_view::npos;
}

}  // namespace idres::testing

// The shipped data sets (../shared/data beside the repository). A test that
// needs one fails clearly when it is absent instead of passing vacuously.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace idres::testing {

inline std::string DataSet(const std::string& name) {
  const char* root = std::getenv("IDRES_SOURCE_DIR");
  if (root == nullptr) FAIL("IDRES_SOURCE_DIR is not set (ctest sets it)");
  std::string path = std::string(root) + "/../shared/data/" + name;
  if (!std::filesystem::exists(path)) FAIL("data set missing: " + path);
  return path;
}

}  // namespace idres::testing

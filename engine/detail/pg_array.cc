#include "engine/detail/pg_array.h"

namespace idres::detail {
namespace {

// {e1,e2,...}, each element written by `write(out, element)`.
template <typename Values, typename Write>
std::string Array(const Values& values, Write write) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    write(out, values[i]);
  }
  return out + '}';
}

}  // namespace

std::string TextArray(std::span<const std::string> values) {
  return Array(values, [](std::string& out, const std::string& value) {
    out += '"';
    for (char c : value) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  });
}

std::string BigintArray(std::span<const std::int64_t> values) {
  return Array(values, [](std::string& out, std::int64_t v) { out += std::to_string(v); });
}

std::string BoolArray(const std::vector<bool>& values) {
  return Array(values, [](std::string& out, bool v) { out += v ? 't' : 'f'; });
}

}  // namespace idres::detail

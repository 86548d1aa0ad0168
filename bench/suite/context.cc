#include "bench/suite/context.h"

#include <algorithm>

namespace idres::bench {
namespace {

void ReplaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t pos = s.find(from); pos != std::string::npos;
       pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
}

}  // namespace

int PoolFor(const SuiteContext& ctx, int clients) {
  return ctx.pool_cap > 0 ? std::min(clients, ctx.pool_cap) : clients;
}

std::vector<std::string> Expand(const std::vector<std::string>& args, const std::string& port,
                                const std::string& url, const std::string& pool,
                                const std::string& file) {
  std::vector<std::string> out;
  for (std::string a : args) {
    ReplaceAll(a, "{port}", port);
    ReplaceAll(a, "{url}", url);
    ReplaceAll(a, "{pool}", pool);
    ReplaceAll(a, "{file}", file);
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace idres::bench

#include "bench/suite/context.h"

#include <boost/algorithm/string/replace.hpp>

#include <algorithm>

namespace idres::bench {

int PoolFor(const SuiteContext& ctx, int clients) {
  return ctx.pool_cap > 0 ? std::min(clients, ctx.pool_cap) : clients;
}

std::vector<std::string> Expand(const std::vector<std::string>& args, const std::string& port,
                                const std::string& url, const std::string& pool,
                                const std::string& file) {
  std::vector<std::string> out;
  for (std::string a : args) {
    boost::algorithm::replace_all(a, "{port}", port);
    boost::algorithm::replace_all(a, "{url}", url);
    boost::algorithm::replace_all(a, "{pool}", pool);
    boost::algorithm::replace_all(a, "{file}", file);
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace idres::bench

// Edits of libpq connection URIs (postgresql://user@host:port/dbname?params),
// done by libpq's own parser (PQconninfoParse): the tests make a database per
// test, the benchmark one per run, and both reach a cluster through proxies.
// What comes back is a URI again, with the parameters in libpq's order and
// every value percent-encoded. A key=value connection string, or a URI libpq
// refuses (an unknown parameter), throws std::invalid_argument.
// Pure functions; thread-safe.
#pragma once

#include <string>

namespace idres {

struct HostPort {
  std::string host = "127.0.0.1";
  int port = 5432;
};

// `url` naming database `dbname` instead of its own.
std::string WithDatabase(const std::string& url, const std::string& dbname);

// The host and port `url` points at (defaults: 127.0.0.1, 5432).
HostPort HostPortOf(const std::string& url);

// `url` pointing at `target` instead.
std::string WithHostPort(const std::string& url, const HostPort& target);

// `url` with its parameter `name` (e.g. "sslmode") set to `value`.
std::string WithParameter(const std::string& url, const std::string& name,
                          const std::string& value);

}  // namespace idres

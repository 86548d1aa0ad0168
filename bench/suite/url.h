// Small edits of libpq URIs (postgresql://user@host:port/dbname?params):
// the benchmark makes one database per run and reaches the cluster through a
// counting proxy. Key=value connection strings are not supported.
// Pure functions; thread-safe.
#pragma once

#include <string>

namespace idres::bench {

struct HostPort {
  std::string host = "127.0.0.1";
  int port = 5432;
};

// `url` naming database `dbname` instead of its own.
std::string WithDatabase(const std::string& url, const std::string& dbname);

// The host and port `url` points at (defaults: 127.0.0.1, 5432).
HostPort HostPortOf(const std::string& url);

// `url` pointing at `target` instead, with TLS and GSS encryption off (the
// counting proxy reads the protocol in clear).
std::string ThroughProxy(const std::string& url, const HostPort& target);

}  // namespace idres::bench

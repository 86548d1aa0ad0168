#include "bench/suite/url.h"

#include <stdexcept>

namespace idres::bench {
namespace {

struct Parts {
  std::string scheme_and_user;  // "postgresql://user@"
  std::string hostport;         // "host:port"
  std::string dbname;
  std::string query;  // "?..." or ""
};

Parts Split(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) {
    throw std::invalid_argument("not a postgresql:// URI: " + url);
  }
  Parts p;
  std::size_t pos = scheme + 3;
  const auto slash = url.find('/', pos);
  const auto qmark = url.find('?', pos);
  const auto auth_end = std::min(slash, qmark);
  std::string authority =
      url.substr(pos, auth_end == std::string::npos ? std::string::npos : auth_end - pos);
  const auto at = authority.rfind('@');
  p.scheme_and_user =
      url.substr(0, pos) + (at == std::string::npos ? "" : authority.substr(0, at + 1));
  p.hostport = at == std::string::npos ? authority : authority.substr(at + 1);
  if (slash != std::string::npos && (qmark == std::string::npos || slash < qmark)) {
    p.dbname =
        url.substr(slash + 1, qmark == std::string::npos ? std::string::npos : qmark - slash - 1);
  }
  if (qmark != std::string::npos) p.query = url.substr(qmark);
  return p;
}

std::string Join(const Parts& p) {
  return p.scheme_and_user + p.hostport + "/" + p.dbname + p.query;
}

}  // namespace

std::string WithDatabase(const std::string& url, const std::string& dbname) {
  Parts p = Split(url);
  p.dbname = dbname;
  return Join(p);
}

HostPort HostPortOf(const std::string& url) {
  const Parts p = Split(url);
  HostPort hp;
  const auto colon = p.hostport.rfind(':');
  if (colon == std::string::npos) {
    if (!p.hostport.empty()) hp.host = p.hostport;
  } else {
    if (colon > 0) hp.host = p.hostport.substr(0, colon);
    hp.port = std::stoi(p.hostport.substr(colon + 1));
  }
  return hp;
}

std::string ThroughProxy(const std::string& url, const HostPort& target) {
  Parts p = Split(url);
  p.hostport = target.host + ":" + std::to_string(target.port);
  p.query += (p.query.empty() ? "?" : "&");
  p.query += "sslmode=disable&gssencmode=disable";
  return Join(p);
}

}  // namespace idres::bench

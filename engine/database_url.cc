#include "engine/database_url.h"

#include <libpq-fe.h>

#include <cctype>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace idres {
namespace {

// The parameters `url` sets, in libpq's order.
using Options = std::vector<std::pair<std::string, std::string>>;

Options Parse(const std::string& url) {
  if (url.rfind("postgresql://", 0) != 0 && url.rfind("postgres://", 0) != 0) {
    throw std::invalid_argument("not a postgresql:// URI: " + url);
  }
  char* error = nullptr;
  std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)> parsed(
      PQconninfoParse(url.c_str(), &error), &PQconninfoFree);
  if (!parsed) {
    std::string why = error != nullptr ? error : "out of memory";
    PQfreemem(error);
    while (!why.empty() && why.back() == '\n') why.pop_back();
    throw std::invalid_argument("not a libpq URI (" + why + "): " + url);
  }
  Options options;
  for (const PQconninfoOption* o = parsed.get(); o->keyword != nullptr; ++o) {
    if (o->val != nullptr) options.emplace_back(o->keyword, o->val);
  }
  return options;
}

const std::string* Find(const Options& options, const std::string& name) {
  for (const auto& [key, value] : options) {
    if (key == name) return &value;
  }
  return nullptr;
}

// Removes parameter `name`; its value, if it was set.
std::optional<std::string> Take(Options& options, const std::string& name) {
  for (auto it = options.begin(); it != options.end(); ++it) {
    if (it->first != name) continue;
    std::string value = std::move(it->second);
    options.erase(it);
    return value;
  }
  return std::nullopt;
}

void Set(Options& options, const std::string& name, const std::string& value) {
  Take(options, name);
  options.emplace_back(name, value);
}

std::string Encode(const std::string& s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += {'%', kHex[u >> 4], kHex[u & 15]};
    }
  }
  return out;
}

// Whether the URI's authority can hold `value` as it is: one host name, IPv4
// address or port, not a socket directory or a list.
bool Plain(const std::string* value) { return value == nullptr || Encode(*value) == *value; }

std::string Join(Options options) {
  std::string out = "postgresql://";
  const auto user = Take(options, "user");
  const auto password = Take(options, "password");
  if (user || password) {
    out += Encode(user.value_or("")) + (password ? ":" + Encode(*password) : "") + "@";
  }
  if (Plain(Find(options, "host")) && Plain(Find(options, "port"))) {
    out += Take(options, "host").value_or("");
    if (const auto port = Take(options, "port")) out += ":" + *port;
  }
  out += "/" + Encode(Take(options, "dbname").value_or(""));
  char separator = '?';
  for (const auto& [key, value] : options) {
    out += separator + key + "=" + Encode(value);
    separator = '&';
  }
  return out;
}

// Join(), checked by libpq (a parameter it does not know).
std::string Checked(Options options) {
  std::string url = Join(std::move(options));
  Parse(url);
  return url;
}

}  // namespace

std::string WithDatabase(const std::string& url, const std::string& dbname) {
  Options options = Parse(url);
  Set(options, "dbname", dbname);
  return Join(std::move(options));
}

HostPort HostPortOf(const std::string& url) {
  Options options = Parse(url);
  HostPort out;
  if (const auto host = Take(options, "host"); host && !host->empty()) out.host = *host;
  if (const auto port = Take(options, "port"); port && !port->empty()) out.port = std::stoi(*port);
  return out;
}

std::string WithHostPort(const std::string& url, const HostPort& target) {
  Options options = Parse(url);
  Set(options, "host", target.host);
  Set(options, "port", std::to_string(target.port));
  return Join(std::move(options));
}

std::string WithParameter(const std::string& url, const std::string& name,
                          const std::string& value) {
  Options options = Parse(url);
  Set(options, name, value);
  return Checked(std::move(options));
}

}  // namespace idres

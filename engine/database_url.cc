#include "engine/database_url.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace idres {
namespace {

// The parameters a URI sets, in libpq's order.
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

// Removes parameter `name`; its value, if it was set.
std::optional<std::string> Take(Options& options, const std::string& name) {
  const auto it = std::find_if(options.begin(), options.end(),
                               [&](const auto& option) { return option.first == name; });
  if (it == options.end()) return std::nullopt;
  std::string value = std::move(it->second);
  options.erase(it);
  return value;
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

std::string Join(Options options) {
  // Host and port stand in the authority when it can hold them as they are
  // (one name or address, not a socket directory or a list).
  const bool plain = std::all_of(options.begin(), options.end(), [](const auto& option) {
    return (option.first != "host" && option.first != "port") ||
           Encode(option.second) == option.second;
  });
  std::string out = "postgresql://";
  const auto user = Take(options, "user");
  const auto password = Take(options, "password");
  if (user || password) {
    out += Encode(user.value_or("")) + (password ? ":" + Encode(*password) : "") + "@";
  }
  if (plain) out += Take(options, "host").value_or("");
  if (const auto port = plain ? Take(options, "port") : std::nullopt) out += ":" + *port;
  out += "/" + Encode(Take(options, "dbname").value_or(""));
  char separator = '?';
  for (const auto& [key, value] : options) {
    out += separator + key + "=" + Encode(value);
    separator = '&';
  }
  Parse(out);  // what libpq would refuse (an unknown parameter) throws
  return out;
}

// `url` with the parameters `set` set.
std::string With(const std::string& url, const Options& set) {
  Options options = Parse(url);
  for (const auto& [key, value] : set) {
    Take(options, key);
    options.emplace_back(key, value);
  }
  return Join(std::move(options));
}

}  // namespace

std::string WithDatabase(const std::string& url, const std::string& dbname) {
  return With(url, {{"dbname", dbname}});
}

HostPort HostPortOf(const std::string& url) {
  Options options = Parse(url);
  HostPort out;
  if (const auto host = Take(options, "host"); host && !host->empty()) out.host = *host;
  if (const auto port = Take(options, "port"); port && !port->empty()) out.port = std::stoi(*port);
  return out;
}

std::string WithHostPort(const std::string& url, const HostPort& target) {
  return With(url, {{"host", target.host}, {"port", std::to_string(target.port)}});
}

std::string WithParameter(const std::string& url, const std::string& name,
                          const std::string& value) {
  return With(url, {{name, value}});
}

}  // namespace idres

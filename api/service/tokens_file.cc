#include "api/service/tokens_file.h"

#include <openssl/rand.h>
#include <toml++/toml.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace idres::api {
namespace {

// A refusal of the file, at the line of `node`.
std::string At(const toml::node& node, const std::string& reason) {
  return "line " + std::to_string(node.source().begin.line) + ": " + reason;
}

std::string RolesOf(const toml::node& node, RoleSet& roles) {
  const auto* array = node.as_array();
  if (array == nullptr) return At(node, "roles must be an array of role names");
  for (const auto& element : *array) {
    const auto* name = element.as_string();
    const auto role = name ? RoleNamed(name->get()) : std::nullopt;
    if (!role) {
      return At(element, "unknown role " + (name ? "'" + name->get() + "'" : std::string("value")) +
                             " (roles: ingest, read, steward, admin)");
    }
    roles |= static_cast<RoleSet>(*role);
  }
  if (roles == 0) return At(node, "a token needs at least one role");
  return "";
}

std::string RateOf(const toml::node& node, double& rate) {
  std::optional<double> value;
  if (const auto* i = node.as_integer()) value = static_cast<double>(i->get());
  if (const auto* f = node.as_floating_point()) value = f->get();
  if (!value || !std::isfinite(*value) || *value <= 0) {
    return At(node, "rate must be a positive number of calls per second");
  }
  rate = *value;
  return "";
}

std::string ConcurrencyOf(const toml::node& node, int& concurrency) {
  const auto* i = node.as_integer();
  if (i == nullptr || i->get() <= 0 || i->get() > std::numeric_limits<int>::max()) {
    return At(node, "concurrency must be a positive whole number of calls");
  }
  concurrency = static_cast<int>(i->get());
  return "";
}

std::string EntryOf(const std::string& name, const toml::node& node, TokenEntry& entry) {
  if (!ValidTokenName(name)) {
    return At(node, "token name '" + name + "' is not 1-64 letters, digits, '-' or '_'");
  }
  const auto* table = node.as_table();
  if (table == nullptr) return At(node, "tokens." + name + " must be a table");
  entry.name = name;
  bool digest = false;
  for (const auto& [k, value] : *table) {
    const std::string key(k.str());
    std::string error;
    if (key == "sha256") {
      const auto* hex = value.as_string();
      const auto parsed = hex ? DigestFromHex(hex->get()) : std::nullopt;
      if (!parsed) return At(value, "sha256 must be 64 hex digits (the token's SHA-256)");
      entry.sha256 = *parsed;
      digest = true;
    } else if (key == "roles") {
      error = RolesOf(value, entry.roles);
    } else if (key == "rate") {
      error = RateOf(value, entry.rate);
    } else if (key == "concurrency") {
      error = ConcurrencyOf(value, entry.concurrency);
    } else {
      error = At(value, "unknown key '" + key + "' (keys: sha256, roles, rate, concurrency)");
    }
    if (!error.empty()) return error;
  }
  if (!digest) return At(node, "tokens." + name + " has no sha256");
  if (entry.roles == 0) return At(node, "tokens." + name + " has no roles");
  return "";
}

}  // namespace

bool ValidTokenName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::variant<TokenTable, std::string> ParseTokensFile(std::string_view text) {
  TokenTable out;
  try {
    const toml::table root = toml::parse(text);
    for (const auto& [k, node] : root) {
      if (k.str() != "tokens" || !node.is_table()) {
        return At(node, "unknown key '" + std::string(k.str()) + "' (a file of [tokens.NAME])");
      }
    }
    std::map<TokenDigest, std::string> names;  // who holds each digest
    if (const auto* tokens = root["tokens"].as_table()) {
      for (const auto& [k, node] : *tokens) {
        TokenEntry entry;
        if (std::string error = EntryOf(std::string(k.str()), node, entry); !error.empty()) {
          return error;
        }
        const auto [held, fresh] = names.emplace(entry.sha256, entry.name);
        if (!fresh) {
          return At(node, "tokens." + entry.name + " has the sha256 of tokens." + held->second);
        }
        out.push_back(std::move(entry));
      }
    }
  } catch (const toml::parse_error& e) {
    std::ostringstream out;
    out << "line " << e.source().begin.line << ": " << e.description();
    return out.str();
  }
  return out;
}

std::variant<TokenTable, std::string> ReadTokensFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": cannot be read";
  std::ostringstream text;
  text << in.rdbuf();
  auto table = ParseTokensFile(text.str());
  if (auto* error = std::get_if<std::string>(&table)) *error = path + ": " + *error;
  return table;
}

TokenEntry AuthTokenEntry(std::string_view token) {
  TokenEntry entry;
  entry.name = "auth-token";
  entry.sha256 = DigestOf(token);
  entry.roles = static_cast<RoleSet>(Role::kAdmin);
  return entry;
}

std::string NewToken() {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("RAND_bytes failed");
  std::string out = "idr_";
  // 256 bits, 6 at a time: 43 characters, the last holding 4 bits.
  unsigned bits = 0, held = 0;
  for (const unsigned char byte : bytes) {
    bits = (bits << 8) | byte;
    held += 8;
    while (held >= 6) {
      held -= 6;
      out += kAlphabet[(bits >> held) & 0x3f];
    }
  }
  if (held > 0) out += kAlphabet[(bits << (6 - held)) & 0x3f];
  return out;
}

std::string TokensFileEntry(const TokenEntry& entry) {
  std::ostringstream out;
  out << "[tokens." << entry.name << "]\nsha256 = \"" << HexOf(entry.sha256) << "\"\nroles = [";
  std::string names = RoleNames(entry.roles);
  std::size_t start = 0;
  for (bool first = true; start <= names.size(); first = false) {
    const std::size_t end = std::min(names.find(',', start), names.size());
    out << (first ? "" : ", ") << '"' << names.substr(start, end - start) << '"';
    start = end + 1;
  }
  out << "]\n";
  if (entry.rate > 0) {
    // The shortest text that reads back as exactly the rate, as a TOML
    // float (a whole number past int64 would not read as an integer).
    char buffer[32];
    std::string rate(buffer, std::to_chars(buffer, buffer + sizeof buffer, entry.rate).ptr);
    if (rate.find_first_of(".e") == std::string::npos) rate += ".0";
    out << "rate = " << rate << "\n";
  }
  if (entry.concurrency > 0) out << "concurrency = " << entry.concurrency << "\n";
  return out.str();
}

}  // namespace idres::api

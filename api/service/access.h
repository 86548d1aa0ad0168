// Roles, and the one table of the role each method of the service needs
// (docs/access.md, "Access and audit"). Every transport asks the same table
// through IdentityService::Authorize: Connect, gRPC and the console.
// Pure values and functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace idres::api {

enum class Role : std::uint8_t {
  kIngest = 1,   // writes records: upserts, and what an upsert would do
  kRead = 2,     // reads persons, history, the change feed
  kSteward = 4,  // read, plus a steward's actions on persons
  kAdmin = 8,    // everything, erasure and the metrics included
};

// The roles a token holds, as a bit set of Role values.
using RoleSet = std::uint8_t;

inline constexpr RoleSet kAllRoles = 0xf;

struct MethodRole {
  std::string_view method;  // a method of idres.v1.IdentityService, or "Metrics" (GET /metrics)
  Role role;
};

// Every method and the role it needs. A method that is not here needs
// admin; GetAccess (the caller's own access) needs only a known token.
inline constexpr MethodRole kMethodRoles[] = {
    {"Upsert", Role::kIngest},
    {"BatchUpsert", Role::kIngest},
    {"UpsertStream", Role::kIngest},
    {"Explain", Role::kIngest},
    {"ForgetReceipts", Role::kIngest},
    {"GetPerson", Role::kRead},
    {"Lookup", Role::kRead},
    {"GetPersonHistory", Role::kRead},
    {"Stats", Role::kRead},
    {"ListChanges", Role::kRead},
    {"WatchChanges", Role::kRead},
    {"ExplainPair", Role::kRead},
    {"ListPossibleMatches", Role::kRead},
    {"GetModel", Role::kRead},
    {"SplitPerson", Role::kSteward},
    {"NeverMatch", Role::kSteward},
    {"AlwaysMatch", Role::kSteward},
    {"DeleteRecord", Role::kSteward},
    {"ForgetPerson", Role::kAdmin},
    {"Metrics", Role::kAdmin},
};

// The method any known token may call: what the caller itself may do.
inline constexpr std::string_view kGetAccess = "GetAccess";

// The role `method` needs; nullopt when any known token may call it
// (GetAccess, and "": a path that names no method, answered 404).
std::optional<Role> RoleNeeded(std::string_view method);

// Whether `held` grants `needed`: the role itself, steward for read, admin
// for every role.
constexpr bool Grants(RoleSet held, Role needed) {
  const auto bit = static_cast<RoleSet>(needed);
  if ((held & bit) != 0 || (held & static_cast<RoleSet>(Role::kAdmin)) != 0) return true;
  return needed == Role::kRead && (held & static_cast<RoleSet>(Role::kSteward)) != 0;
}

// "ingest", "read", "steward", "admin".
std::string_view RoleName(Role role);
// The role of a name; nullopt for a name that is none.
std::optional<Role> RoleNamed(std::string_view name);
// The roles of `roles` by name, comma-separated ("ingest,read"); "none" for
// the empty set.
std::string RoleNames(RoleSet roles);

}  // namespace idres::api

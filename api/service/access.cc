#include "api/service/access.h"

namespace idres::api {
namespace {

constexpr Role kRoles[] = {Role::kIngest, Role::kRead, Role::kSteward, Role::kAdmin};

}  // namespace

std::optional<Role> RoleNeeded(std::string_view method) {
  if (method.empty() || method == kGetAccess) return std::nullopt;
  for (const auto& entry : kMethodRoles) {
    if (entry.method == method) return entry.role;
  }
  return Role::kAdmin;  // a method missing from the table is closed, not open
}

std::string_view RoleName(Role role) {
  switch (role) {
    case Role::kIngest:
      return "ingest";
    case Role::kRead:
      return "read";
    case Role::kSteward:
      return "steward";
    case Role::kAdmin:
      return "admin";
  }
  return "none";
}

std::optional<Role> RoleNamed(std::string_view name) {
  for (const Role role : kRoles) {
    if (RoleName(role) == name) return role;
  }
  return std::nullopt;
}

std::string RoleNames(RoleSet roles) {
  std::string out;
  for (const Role role : kRoles) {
    if ((roles & static_cast<RoleSet>(role)) == 0) continue;
    if (!out.empty()) out += ',';
    out += RoleName(role);
  }
  return out.empty() ? "none" : out;
}

}  // namespace idres::api

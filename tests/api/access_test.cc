#include "api/service/access.h"

#include <google/protobuf/descriptor.h>

#include <catch2/catch.hpp>

#include "api/idres/v1/identity.pb.h"

namespace idres::api {
namespace {

TEST_CASE("Every method of the service names its role in the one table") {
  const auto* service = v1::GetAccessRequest::descriptor()->file()->FindServiceByName("IdentityService");
  REQUIRE(service != nullptr);
  for (int i = 0; i < service->method_count(); ++i) {
    const std::string& name = service->method(i)->name();
    INFO(name);
    if (name == kGetAccess) {
      CHECK_FALSE(RoleNeeded(name));
      continue;
    }
    bool listed = false;
    for (const auto& entry : kMethodRoles) listed = listed || entry.method == name;
    CHECK(listed);
  }
  CHECK(RoleNeeded("Metrics") == Role::kAdmin);
  CHECK(RoleNeeded("NoSuchMethod") == Role::kAdmin);  // closed unless listed
  CHECK_FALSE(RoleNeeded(""));
}

TEST_CASE("Steward includes read, admin includes everything, the others only themselves") {
  const auto set = [](Role r) { return static_cast<RoleSet>(r); };
  CHECK(Grants(set(Role::kIngest), Role::kIngest));
  CHECK_FALSE(Grants(set(Role::kIngest), Role::kRead));
  CHECK_FALSE(Grants(set(Role::kRead), Role::kIngest));
  CHECK_FALSE(Grants(set(Role::kRead), Role::kSteward));
  CHECK(Grants(set(Role::kSteward), Role::kRead));
  CHECK(Grants(set(Role::kSteward), Role::kSteward));
  CHECK_FALSE(Grants(set(Role::kSteward), Role::kIngest));
  CHECK_FALSE(Grants(set(Role::kSteward), Role::kAdmin));
  for (const Role r : {Role::kIngest, Role::kRead, Role::kSteward, Role::kAdmin}) {
    CHECK(Grants(set(Role::kAdmin), r));
    CHECK(RoleNamed(RoleName(r)) == r);
  }
  CHECK(RoleNames(set(Role::kIngest) | set(Role::kRead)) == "ingest,read");
  CHECK(RoleNames(0) == "none");
}

}  // namespace
}  // namespace idres::api

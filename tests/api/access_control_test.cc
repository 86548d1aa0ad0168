#include "api/service/access_control.h"

#include <catch2/catch.hpp>

namespace idres::api {
namespace {

TokenEntry Entry(const std::string& name, const std::string& token, Role role, double rate = 0,
                 int concurrency = 0) {
  return {name, DigestOf(token), static_cast<RoleSet>(role), rate, concurrency};
}

std::optional<Code> Refusal(const AccessControl& access, const std::string& token,
                            std::string_view method) {
  const auto admitted = access.Admit("Bearer " + token, method);
  if (const auto* error = std::get_if<RpcError>(&admitted)) return error->code;
  return std::nullopt;
}

TEST_CASE("Without tokens every caller is anonymous, with every role") {
  const AccessControl open;
  const auto admitted = open.Admit("", "ForgetPerson");
  REQUIRE(std::holds_alternative<Caller>(admitted));
  CHECK(std::get<Caller>(admitted).name == "anonymous");
}

TEST_CASE("A call is admitted by its token's roles, and refused naming the role it needs") {
  const AccessControl access({Entry("pipeline", "t-ingest", Role::kIngest),
                              Entry("alice", "t-steward", Role::kSteward)});
  CHECK(Refusal(access, "t-ingest", "Upsert") == std::nullopt);
  CHECK(Refusal(access, "t-ingest", "ForgetPerson") == Code::kPermissionDenied);
  CHECK(Refusal(access, "t-steward", "GetPerson") == std::nullopt);
  CHECK(Refusal(access, "t-steward", "SplitPerson") == std::nullopt);
  CHECK(Refusal(access, "t-steward", "Upsert") == Code::kPermissionDenied);
  CHECK(Refusal(access, "t-other", "GetAccess") == Code::kUnauthenticated);
  CHECK(Refusal(access, "t-ingest", "GetAccess") == std::nullopt);
  const auto denied = access.Admit("Bearer t-steward", "ForgetPerson");
  CHECK(std::get<RpcError>(denied).message ==
        "ForgetPerson needs the role admin; token 'alice' has steward");
  const auto admitted = access.Admit("bearer t-steward", "SplitPerson");
  CHECK(std::get<Caller>(admitted).name == "alice");
  CHECK(std::get<RpcError>(access.Admit("", "Stats")).code == Code::kUnauthenticated);
}

TEST_CASE("Concurrency counts the calls whose Caller is still held") {
  const AccessControl access({Entry("pipeline", "t", Role::kIngest, 0, 2)});
  auto first = std::get<Caller>(access.Admit("Bearer t", "Upsert"));
  auto second = std::get<Caller>(access.Admit("Bearer t", "Upsert"));
  const auto third = access.Admit("Bearer t", "Upsert");
  REQUIRE(std::holds_alternative<RpcError>(third));
  CHECK(std::get<RpcError>(third).code == Code::kResourceExhausted);
  CHECK(std::get<RpcError>(third).message ==
        "token 'pipeline' has 2 calls in flight, its concurrency limit");
  const Caller copy = first;  // a copy of the call's Caller holds the same place
  first = {};
  CHECK(std::holds_alternative<RpcError>(access.Admit("Bearer t", "Upsert")));
  second = {};
  CHECK(std::holds_alternative<Caller>(access.Admit("Bearer t", "Upsert")));
}

TEST_CASE("The rate is a bucket of one second's calls, kept by name when the tokens are replaced") {
  AccessControl access({Entry("pipeline", "t", Role::kIngest, 3)});
  for (int i = 0; i < 3; ++i) CHECK(Refusal(access, "t", "Upsert") == std::nullopt);
  CHECK(Refusal(access, "t", "Upsert") == Code::kResourceExhausted);
  // The same name under a new token: still empty. Another token: its own.
  access.Replace({Entry("pipeline", "t2", Role::kIngest, 3), Entry("other", "o", Role::kIngest, 3)});
  CHECK(Refusal(access, "t", "Upsert") == Code::kUnauthenticated);
  CHECK(Refusal(access, "t2", "Upsert") == Code::kResourceExhausted);
  CHECK(Refusal(access, "o", "Upsert") == std::nullopt);
}

}  // namespace
}  // namespace idres::api

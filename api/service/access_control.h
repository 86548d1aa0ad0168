// AccessControl: who may call what, and how much (docs/access.md, "Access and
// audit"). It holds the tokens in force (from the tokens file and
// --auth-token) and each token's limits' state, and admits a call: its
// bearer token looked up by SHA-256 (unauthenticated when unknown), the
// method's role (kMethodRoles; permission_denied naming the role), then the
// token's rate and concurrency (resource_exhausted). Replace swaps the
// tokens at once (SIGHUP); a token that stays, by name, keeps its limits'
// state. Without tokens there is no check: every caller is "anonymous",
// with every role.
//
// Thread-safety: every method may be called from many threads at once.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "api/service/access.h"
#include "api/service/status.h"
#include "api/service/tokens_file.h"

namespace idres::api {

// A call admitted: the token's name and roles, and its place among the
// token's calls in flight, held until the last copy of the Caller is gone.
struct Caller {
  std::string name = "anonymous";
  RoleSet roles = kAllRoles;
  std::shared_ptr<const void> slot;  // null when the token bounds no concurrency
};

class AccessControl {
 public:
  // Open: no token is required.
  AccessControl();
  // Only the tokens of `tokens` are let in.
  explicit AccessControl(TokenTable tokens);
  ~AccessControl();
  AccessControl(const AccessControl&) = delete;
  AccessControl& operator=(const AccessControl&) = delete;

  // From now on, only the tokens of `tokens`; calls already admitted go on.
  void Replace(TokenTable tokens);

  // The caller of a call of `method` whose Authorization header is
  // `authorization`, or the error that refuses it.
  std::variant<Caller, RpcError> Admit(std::string_view authorization,
                                       std::string_view method) const;

 private:
  struct Tokens;
  struct Limiter;
  std::shared_ptr<const Tokens> Current() const;

  struct Guarded;
  std::unique_ptr<Guarded> guarded_;
};

}  // namespace idres::api

// The audit log (docs/access.md, "Access and audit"): every steward and admin
// action — SplitPerson, NeverMatch, AlwaysMatch, DeleteRecord, ForgetPerson
// — recorded by the action's own transaction with who asked, when, the
// persons it acted on and the request's parameters. Plain values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/timestamp.h"

namespace idres {

// The actor of a steward's action whose caller names none: a program that
// runs the engine in its own process (a test, a tool).
inline constexpr std::string_view kInProcessActor = "in-process";

// One entry of the audit log (Engine::ReadAudit).
struct AuditEntry {
  std::int64_t seq = 0;  // the order the entries were written in
  Timestamp at;          // the action's transaction's time
  std::string actor;     // a token's name, "cli:<user>", "in-process"
  std::string action;    // the engine method: "SplitPerson", "ForgetPerson", ...
  // The stored persons acted on: the person split, the two judged, the
  // deleted record's person; an erasure's: every id it erased.
  std::vector<std::int64_t> persons;
  std::string request;  // the parameters as the engine took them: a JSON object
};

}  // namespace idres

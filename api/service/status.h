// The status codes of the IdentityService, transport-neutral: the codes
// gRPC defines, with gRPC's numbers, which the Connect protocol names in
// snake case (connectrpc.com/docs/protocol, "Error Codes"). A method's
// answer is a response or an RpcError; the transports only write the code
// in their own way (Connect: an HTTP status and a JSON body; gRPC: the
// status trailer). Pure values and functions; thread-safe.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace idres::api {

enum class Code {
  kCanceled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
  kUnauthenticated = 16,
};

// Every error code, in numeric order (for tables and tests).
inline constexpr Code kAllCodes[] = {
    Code::kCanceled,         Code::kUnknown,           Code::kInvalidArgument,
    Code::kDeadlineExceeded, Code::kNotFound,          Code::kAlreadyExists,
    Code::kPermissionDenied, Code::kResourceExhausted, Code::kFailedPrecondition,
    Code::kAborted,          Code::kOutOfRange,        Code::kUnimplemented,
    Code::kInternal,         Code::kUnavailable,       Code::kDataLoss,
    Code::kUnauthenticated,
};

// An RPC failure as the client will see it.
struct RpcError {
  Code code = Code::kUnknown;
  std::string message;
};

// The code's wire name in the Connect protocol and in the metrics, e.g.
// "invalid_argument".
std::string_view CodeName(Code code);

// The code of a wire name; nullopt for a name that is none.
std::optional<Code> CodeNamed(std::string_view name);

// The code of a gRPC status number; nullopt for 0 (OK) and numbers that are
// none.
std::optional<Code> CodeNumbered(int number);

// A failure that already is a status: what a client throws for a code that
// has no engine error of its own (api/service/error_mapping.h maps it back
// to the same code).
class StatusError : public std::runtime_error {
 public:
  StatusError(Code code, std::string message)
      : std::runtime_error(std::string(CodeName(code)) + ": " + message),
        code_(code),
        message_(std::move(message)) {}
  Code code() const { return code_; }
  // The message without the code.
  const std::string& message() const { return message_; }

 private:
  Code code_;
  std::string message_;
};

}  // namespace idres::api

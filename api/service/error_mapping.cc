#include "api/service/error_mapping.h"

#include <spdlog/spdlog.h>

#include "engine/errors.h"

namespace idres::api {

RpcError MapException(std::exception_ptr failure, std::string_view method) {
  try {
    std::rethrow_exception(failure);
  } catch (const BusyError& e) {
    spdlog::warn("{}: lock timeout: {}", method, e.what());
    return {Code::kUnavailable, "a lock was not granted within the lock timeout; retry"};
  } catch (const UnavailableError& e) {
    spdlog::warn("{}: database unavailable: {}", method, e.what());
    return {Code::kUnavailable, "the database is unavailable; retry"};
  } catch (const DeadlineError& e) {
    spdlog::info("{}: deadline exceeded: {}", method, e.what());
    return {Code::kDeadlineExceeded, e.what()};
  } catch (const ConflictError& e) {
    spdlog::warn("{}: conflict after retries: {}", method, e.what());
    return {Code::kUnavailable, "conflicting concurrent writes kept failing; retry"};
  } catch (const StatusError& e) {
    // Already a status (a backend that is itself a client): kept as it is.
    spdlog::info("{}: {}", method, e.what());
    return {e.code(), e.message()};
  } catch (const std::exception& e) {
    spdlog::error("{}: internal error: {}", method, e.what());
  } catch (...) {
    spdlog::error("{}: internal error (not a std::exception)", method);
  }
  return {Code::kInternal, "internal error; the server log has the details"};
}

}  // namespace idres::api

#include "api/service/access_control.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>
#include <unordered_map>

#include "base/mutex.h"

namespace idres::api {

using Clock = std::chrono::steady_clock;

// One token's limits and their state: a bucket of calls that refills at
// `rate` a second and holds one second's calls (at least one), and the
// calls in flight.
struct AccessControl::Limiter {
  Mutex mu;
  std::string name GUARDED_BY(mu);
  double rate GUARDED_BY(mu) = 0;
  int concurrency GUARDED_BY(mu) = 0;
  double bucket GUARDED_BY(mu) = 0;
  Clock::time_point refilled GUARDED_BY(mu) = Clock::now();
  int in_flight GUARDED_BY(mu) = 0;

  void Set(const TokenEntry& entry) EXCLUDES(mu) {
    MutexLock lock(&mu);
    const bool fresh = name.empty();
    name = entry.name;
    rate = entry.rate;
    concurrency = entry.concurrency;
    bucket = fresh ? Capacity() : std::min(bucket, Capacity());
  }

  double Capacity() const REQUIRES(mu) { return std::max(1.0, rate); }

  // Takes a call; the reason it is refused, or nullopt.
  std::optional<std::string> Take() EXCLUDES(mu) {
    MutexLock lock(&mu);
    if (concurrency > 0 && in_flight >= concurrency) {
      return "token '" + name + "' has " + std::to_string(in_flight) +
             " calls in flight, its concurrency limit";
    }
    if (rate > 0) {
      const Clock::time_point now = Clock::now();
      const std::chrono::duration<double> elapsed = now - refilled;
      refilled = now;
      bucket = std::min(Capacity(), bucket + elapsed.count() * rate);
      if (bucket < 1) {
        std::ostringstream reason;
        reason << "token '" << name << "' is over its rate limit of " << rate
               << " calls per second";
        return reason.str();
      }
      bucket -= 1;
    }
    ++in_flight;
    return std::nullopt;
  }

  void Release() EXCLUDES(mu) {
    MutexLock lock(&mu);
    --in_flight;
  }
};

struct AccessControl::Tokens {
  struct Known {
    TokenEntry entry;
    std::shared_ptr<Limiter> limiter;  // null: the token has no limits
  };
  bool open = true;
  // By digest, as bytes: the token is hashed before it is looked up, so
  // the lookup's time says nothing about the token.
  std::unordered_map<std::string, Known> by_digest;
};

struct AccessControl::Guarded {
  Mutex mu;
  std::shared_ptr<const Tokens> tokens GUARDED_BY(mu) = std::make_shared<const Tokens>();
  // Kept across Replace by the token's name.
  std::map<std::string, std::shared_ptr<Limiter>> limiters GUARDED_BY(mu);
};

namespace {

std::string Key(const TokenDigest& digest) {
  return {reinterpret_cast<const char*>(digest.data()), digest.size()};
}

}  // namespace

AccessControl::AccessControl() : guarded_(std::make_unique<Guarded>()) {}

AccessControl::AccessControl(TokenTable tokens) : AccessControl() { Replace(std::move(tokens)); }

AccessControl::~AccessControl() = default;

void AccessControl::Replace(TokenTable tokens) {
  auto next = std::make_shared<Tokens>();
  next->open = false;
  MutexLock lock(&guarded_->mu);
  std::map<std::string, std::shared_ptr<Limiter>> limiters;
  for (TokenEntry& entry : tokens) {
    std::shared_ptr<Limiter> limiter;
    if (entry.rate > 0 || entry.concurrency > 0) {
      const auto kept = guarded_->limiters.find(entry.name);
      limiter = kept != guarded_->limiters.end() ? kept->second : std::make_shared<Limiter>();
      limiter->Set(entry);
      limiters.emplace(entry.name, limiter);
    }
    const std::string key = Key(entry.sha256);
    next->by_digest.emplace(key, Tokens::Known{std::move(entry), std::move(limiter)});
  }
  guarded_->limiters = std::move(limiters);
  guarded_->tokens = std::move(next);
}

std::shared_ptr<const AccessControl::Tokens> AccessControl::Current() const {
  MutexLock lock(&guarded_->mu);
  return guarded_->tokens;
}

std::variant<Caller, RpcError> AccessControl::Admit(std::string_view authorization,
                                                    std::string_view method) const {
  const std::shared_ptr<const Tokens> tokens = Current();
  if (tokens->open) return Caller{};
  const auto bearer = BearerToken(authorization);
  const auto known = bearer ? tokens->by_digest.find(Key(DigestOf(*bearer))) : tokens->by_digest.end();
  if (known == tokens->by_digest.end()) {
    return RpcError{Code::kUnauthenticated, "missing or unknown bearer token"};
  }
  const TokenEntry& entry = known->second.entry;
  if (const auto role = RoleNeeded(method); role && !Grants(entry.roles, *role)) {
    return RpcError{Code::kPermissionDenied, std::string(method) + " needs the role " +
                                                 std::string(RoleName(*role)) + "; token '" +
                                                 entry.name + "' has " + RoleNames(entry.roles)};
  }
  Caller caller{entry.name, entry.roles, nullptr};
  if (const auto& limiter = known->second.limiter) {
    if (auto refused = limiter->Take()) return RpcError{Code::kResourceExhausted, *refused};
    // Released when the call's last copy of the Caller goes.
    caller.slot = std::shared_ptr<const void>(limiter.get(), [limiter](const void*) {
      limiter->Release();
    });
  }
  return caller;
}

}  // namespace idres::api

// idres_bench_access: what the role check costs one call — AccessControl's
// Admit, as IdentityService::Authorize runs it before every call of every
// transport: the bearer token hashed (SHA-256) and looked up, the method's
// role, and with limits the token's bucket and concurrency slot. Beside it,
// the open server's (no tokens) for the floor. Not a test: it prints numbers.
//
//   build/bench/idres_bench_access [seconds-per-measurement, default 1]
//
// Each line: the best of 5 rounds, after a warm-up, in ns per call; the
// two-thread line runs two threads on the same limited token at once.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "api/service/access_control.h"

namespace {

using Clock = std::chrono::steady_clock;
using idres::api::AccessControl;
using idres::api::Role;
using idres::api::RoleSet;
using idres::api::TokenEntry;
using idres::api::TokenTable;

// 50 tokens "tok-0" .. "tok-49" (as `idres token new` makes them, 47
// characters), the first with `rate` and `concurrency`.
TokenTable Tokens(double rate, int concurrency) {
  TokenTable out;
  for (int i = 0; i < 50; ++i) {
    const std::string token = "idr_" + std::string(41, 'x') + std::to_string(i % 10) +
                              std::to_string(i / 10);
    out.push_back({"tok-" + std::to_string(i), idres::api::DigestOf(token),
                   static_cast<RoleSet>(i == 0 ? Role::kIngest : Role::kRead), i == 0 ? rate : 0,
                   i == 0 ? concurrency : 0});
  }
  return out;
}

const std::string kHeader = "Bearer idr_" + std::string(41, 'x') + "00";  // tok-0's

// ns per call of `call`, run on `threads` threads for `seconds`: the best of 5.
double NsPerCall(const std::function<bool()>& call, double seconds, int threads = 1) {
  double best = 1e300;
  for (int round = 0; round < 6; ++round) {
    std::atomic<long> calls{0};
    std::atomic<bool> bad{false};
    const auto until = Clock::now() + std::chrono::duration<double>(seconds / 5);
    const auto start = Clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        long n = 0;
        while (Clock::now() < until) {
          for (int i = 0; i < 256; ++i) bad = bad || !call();
          n += 256;
        }
        calls += n;
      });
    }
    for (auto& t : pool) t.join();
    if (bad) {
      std::fprintf(stderr, "a call was not answered as expected\n");
      std::exit(1);
    }
    const std::chrono::duration<double, std::nano> spent = Clock::now() - start;
    if (round > 0) best = std::min(best, spent.count() * threads / calls);  // round 0 warms up
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const AccessControl open;
  const AccessControl roles(Tokens(0, 0));
  // Limits far above what the loop reaches: every call takes the limiter's path and is let in.
  const AccessControl limited(Tokens(1e12, 1 << 30));
  const auto admitted = [](const AccessControl& access, const char* method) {
    return [&access, method] {
      return std::holds_alternative<idres::api::Caller>(access.Admit(kHeader, method));
    };
  };
  std::printf("%-58s %8s\n", "Admit (IdentityService::Authorize), per call", "ns");
  std::printf("%-58s %8.0f\n", "open server: no tokens (the floor)",
              NsPerCall(admitted(open, "Upsert"), seconds));
  std::printf("%-58s %8.0f\n", "of which the token's SHA-256 (DigestOf)",
              NsPerCall([] { return idres::api::DigestOf(kHeader.substr(7))[0] != 0xff; }, seconds));
  std::printf("%-58s %8.0f\n", "50 tokens, role granted (hash, lookup, role)",
              NsPerCall(admitted(roles, "Upsert"), seconds));
  std::printf("%-58s %8.0f\n", "50 tokens, role refused (permission_denied message)",
              NsPerCall([&] { return !admitted(roles, "ForgetPerson")(); }, seconds));
  std::printf("%-58s %8.0f\n", "with rate and concurrency (bucket, slot held and freed)",
              NsPerCall(admitted(limited, "Upsert"), seconds));
  std::printf("%-58s %8.0f\n", "the same, two threads on the one token at once",
              NsPerCall(admitted(limited, "Upsert"), seconds, 2));
  return 0;
}

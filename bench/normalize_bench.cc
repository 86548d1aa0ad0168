// idres_bench_normalize: single-thread (one core) throughput of the normalizers, beside a
// bare libphonenumber Parse+Format loop on the same phone inputs (the floor
// the phone normalizer is measured against). Not a test: it prints numbers.
//
//   build-rel/bench/idres_bench_normalize [seconds-per-measurement, default 1]
//
// Phones: best of 5 alternating rounds each, after a warm-up. Emails: one
// measurement each.
#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "normalize/normalizer.h"

namespace {

using Clock = std::chrono::steady_clock;
using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

struct Input {
  std::string value;
  std::string region;
};

// Deterministic, varied spellings: international, national, IDD, extensions.
std::vector<Input> Phones(int n) {
  std::vector<Input> out;
  for (int i = 0; i < n; ++i) {
    const std::string d = std::to_string(1000000 + (i * 7919) % 9000000);
    const Input spellings[] = {{"+49 170 " + d, ""},
                               {"0170 " + d, "DE"},
                               {"0049-151-" + d, "DE"},
                               {"(650) 25" + d.substr(0, 1) + "-" + d.substr(1, 4), "US"},
                               {"+44 20 7946 " + d.substr(3), ""},
                               {"+1 415 555 " + d.substr(3) + " ext. 12", ""}};
    out.push_back(spellings[i % 6]);
  }
  return out;
}

std::vector<std::string> AsciiEmails(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(" Anna.Schmidt" + std::to_string(i) + "@Mail" + std::to_string(i % 97) +
                  ".Example.COM ");
  }
  return out;
}

std::vector<std::string> UnicodeEmails(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    out.push_back("Jürgen" + std::to_string(i) + "@Bücher" + std::to_string(i % 97) + ".de");
  }
  return out;
}

// Calls fn(i) round-robin over `count` inputs for `seconds`; returns calls/s.
double Rate(double seconds, std::size_t count, const std::function<bool(std::size_t)>& fn) {
  std::size_t calls = 0, accepted = 0;
  const auto start = Clock::now();
  const auto until = start + std::chrono::duration<double>(seconds);
  while (Clock::now() < until) {
    for (std::size_t i = 0; i < count; ++i) accepted += fn(i) ? 1 : 0;
    calls += count;
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  if (accepted != calls)
    std::fprintf(stderr, "warning: %zu of %zu rejected\n", calls - accepted, calls);
  return static_cast<double>(calls) / elapsed;
}

bool Accepted(const idres::NormalizeResult& r) {
  return std::holds_alternative<idres::Identifier>(r);
}

void Print(const char* what, double rate) { std::printf("%-34s %12.0f /s\n", what, rate); }

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;

  idres::NormalizerConfig config;
  config.kinds = {{"phone", idres::NormalizerKind::kPhone}, {"email", idres::NormalizerKind::kEmail}};
  const idres::Normalizer normalizer(config);
  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
  const auto phones = Phones(6000);
  const auto ascii = AsciiEmails(10000);
  const auto unicode = UnicodeEmails(2000);

  auto bare_loop = [&](std::size_t i) {
    PhoneNumber number;
    std::string e164;
    const bool ok = util.Parse(phones[i].value, phones[i].region.empty() ? "US" : phones[i].region,
                               &number) == PhoneNumberUtil::NO_PARSING_ERROR;
    util.Format(number, PhoneNumberUtil::E164, &e164);
    return ok;
  };
  auto phone_loop = [&](std::size_t i) {
    return Accepted(normalizer.Normalize("phone", phones[i].value, phones[i].region));
  };
  // libphonenumber compiles and caches regexes on first use: warm both up, then
  // alternate rounds so machine noise hits both alike, and keep each one's best.
  Rate(seconds / 4, phones.size(), bare_loop);
  Rate(seconds / 4, phones.size(), phone_loop);
  double bare = 0, phone = 0;
  for (int round = 0; round < 5; ++round) {
    bare = std::max(bare, Rate(seconds, phones.size(), bare_loop));
    phone = std::max(phone, Rate(seconds, phones.size(), phone_loop));
  }
  Print("bare libphonenumber parse+format", bare);
  Print("phones (idres normalize)", phone);
  std::printf("%-34s %11.1f %%\n", "phone overhead vs bare", (bare / phone - 1.0) * 100.0);
  Print("emails, ASCII (fast path)", Rate(seconds, ascii.size(), [&](std::size_t i) {
          return Accepted(normalizer.Normalize("email", ascii[i]));
        }));
  Print("emails, non-ASCII (ICU + IDNA)", Rate(seconds, unicode.size(), [&](std::size_t i) {
          return Accepted(normalizer.Normalize("email", unicode[i]));
        }));
  return 0;
}

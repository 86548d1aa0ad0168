#include "bench/suite/workload.h"

#include <fmt/format.h>

#include <string>

namespace idres::bench {
namespace {

// splitmix64: spreads sequence numbers over the preloaded persons.
std::uint64_t Mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string IsoDate(std::int64_t days_after_1990) {
  // Days are spread over one non-leap-sensitive range: 1990-01-01 + n by
  // month-of-28-days arithmetic, which only has to be a valid, distinct date.
  const std::int64_t n = days_after_1990 % (30 * 12 * 28);
  const std::int64_t year = 1960 + n / (12 * 28);
  const std::int64_t month = 1 + (n / 28) % 12;
  const std::int64_t day = 1 + n % 28;
  return fmt::format("{:04}-{:02}-{:02}", year, month, day);
}

// An operation of `kind` on the record of `identifiers` and `traits`.
PlannedOp Op(OpKind kind, std::vector<RawIdentifier> identifiers, Traits traits) {
  PlannedOp op;
  op.kind = kind;
  op.record.identifiers = std::move(identifiers);
  op.record.traits = std::move(traits);
  op.record.source = "bench";
  return op;
}

}  // namespace

std::string PreloadEmail(std::int64_t i) {
  return "p" + std::to_string(i) + "@preload.example.org";
}
std::string PreloadPhone(std::int64_t i) { return "+1650" + std::to_string(2000000 + i); }

void Tally::Count(const PlannedOp& op) {
  switch (op.kind) {
    case OpKind::kNew:
      created.fetch_add(1, std::memory_order_relaxed);
      break;
    case OpKind::kUpdate:
      updated.fetch_add(1, std::memory_order_relaxed);
      break;
    case OpKind::kHot:
      hot_touched[op.hot_index].store(true, std::memory_order_relaxed);
      updated.fetch_add(1, std::memory_order_relaxed);
      break;
    case OpKind::kBridge:
      bridged.fetch_add(1, std::memory_order_relaxed);
      break;
  }
}

std::string LetterName(std::int64_t n) {
  std::string out;
  for (std::uint64_t h = Mix(static_cast<std::uint64_t>(n)), i = 0; i < 2; ++i) {
    if (i > 0) out += ' ';
    for (int k = 0; k < 7; ++k, h /= 26) out += static_cast<char>('a' + h % 26);
  }
  return out;
}

Workload::Workload(char scenario, std::int64_t preload) : scenario_(scenario), preload_(preload) {}

PlannedOp Workload::New(std::int64_t seq) const {
  return Op(OpKind::kNew,
            {{"email", "n" + std::to_string(seq) + "@new.example.org"},
             {"phone", fmt::format("+1652{:07}", seq % 10000000)},
             {"name", LetterName(seq)},
             {"birth_date", IsoDate(seq)},
             {"postal_code", std::to_string(10000 + seq % 90000)}},
            {{"plan", std::string("trial")}, {"seq", static_cast<double>(seq)}});
}

PlannedOp Workload::Update(std::int64_t person, std::int64_t seq) const {
  return Op(OpKind::kUpdate, {{"email", PreloadEmail(person)}},
            {{"visits", static_cast<double>(seq)}});
}

PlannedOp Workload::Hot(std::int64_t seq) const {
  // Spread at random over the ten, as pgbench's hot run picks them: with 8
  // clients or more, first upserts of one person race each other (where the
  // naive path creates duplicates).
  const int hot = static_cast<int>(Mix(static_cast<std::uint64_t>(seq)) % Tally::kHotPeople);
  PlannedOp op = Op(OpKind::kHot, {{"email", "hot" + std::to_string(hot) + "@hot.example.org"}},
                    {{"visits", static_cast<double>(seq)}});
  op.hot_index = hot;
  return op;
}

PlannedOp Workload::Bridge(std::int64_t pair, std::int64_t seq) const {
  return Op(OpKind::kBridge,
            {{"email", PreloadEmail(2 * pair + 1)}, {"phone", PreloadPhone(2 * pair + 2)}},
            {{"bridged_by", static_cast<double>(seq)}});
}

PlannedOp Workload::Next(std::int64_t seq) const {
  const auto spread = static_cast<std::int64_t>(Mix(static_cast<std::uint64_t>(seq)) >> 1);
  switch (scenario_) {
    case 'b':
      return Update(1 + spread % preload_, seq);
    case 'c':
      return Hot(seq);
    case 'd': {
      const std::int64_t half = preload_ / 2;
      const std::int64_t slot = seq % 10;
      if (slot == 0 && 2 * (seq / 10) + 2 <= half) return Bridge(seq / 10, seq);
      if (slot <= 4) return Update(half + 1 + spread % (preload_ - half), seq);
      return New(seq);
    }
    default:
      return New(seq);
  }
}

std::int64_t Workload::ExpectedCreations(const Tally& tally) const {
  std::int64_t hot = 0;
  for (const auto& touched : tally.hot_touched) hot += touched.load() ? 1 : 0;
  return tally.created.load() + hot;
}

std::int64_t Workload::ExpectedPersons(const Tally& tally) const {
  return preload_ + ExpectedCreations(tally) - tally.bridged.load();
}

}  // namespace idres::bench

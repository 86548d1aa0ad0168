#include "bench/train_data.h"

#include <cmath>
#include <cstdio>

#include "train/random.h"

namespace idres::bench {
namespace {

using train::Random;

// Pronounceable words of two or three syllables, the n-th always the same.
std::string Word(std::uint64_t n, std::uint64_t salt) {
  static const char* kOnset[] = {"b", "d", "f", "g", "h", "k",  "l",  "m",  "n",  "p",  "r",
                                 "s", "t", "v", "w", "z", "br", "ch", "st", "tr", "sh", "kl"};
  static const char* kVowel[] = {"a", "e", "i", "o", "u", "ai", "ei", "ou"};
  Random r(n * 7919 + salt);
  std::string out;
  const int syllables = 2 + static_cast<int>(r.Below(2));
  for (int s = 0; s < syllables; ++s) {
    out += kOnset[r.Below(std::size(kOnset))];
    out += kVowel[r.Below(std::size(kVowel))];
  }
  if (r.Below(2) == 0) out += "n";
  return out;
}

// Zipf-like: rank k drawn with weight 1/k among `n`, by inverting the
// harmonic sum's logarithmic approximation.
std::uint64_t Zipf(Random& r, std::uint64_t n) {
  const double x = std::exp(r.Unit() * std::log(static_cast<double>(n) + 1)) - 1;
  return std::min<std::uint64_t>(n - 1, static_cast<std::uint64_t>(x));
}

std::string Date(Random& r) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", 1930 + static_cast<int>(r.Below(75)),
                1 + static_cast<int>(r.Below(12)), 1 + static_cast<int>(r.Below(28)));
  return buf;
}

// One changed letter (never the first), as a typing slip does.
std::string Slip(std::string s, Random& r) {
  if (s.size() < 3) return s;
  const std::size_t at = 1 + r.Below(s.size() - 2);
  if (s[at] >= 'a' && s[at] <= 'z') s[at] = static_cast<char>('a' + (s[at] - 'a' + 1) % 26);
  return s;
}

// A year one digit off: still a date.
std::string YearSlip(std::string date) {
  date[3] = static_cast<char>('0' + (date[3] - '0' + 1) % 10);
  return date;
}

TrainRecord Copy(const TrainRecord& p, Random& r, bool first) {
  TrainRecord c;
  c.person = p.person;
  const bool typo = !first && r.Below(4) == 0;
  const int where = static_cast<int>(r.Below(3));
  if (first || r.Below(10) != 0) c.name = typo && where == 0 ? Slip(p.name, r) : p.name;
  if (first || r.Below(10) != 0)
    c.birth_date = typo && where == 1 ? YearSlip(p.birth_date) : p.birth_date;
  if (r.Below(10) != 0) c.city = p.city;
  if (!p.email.empty() && r.Below(10) != 0)
    c.email = typo && where == 2 ? Slip(p.email, r) : p.email;
  return c;
}

}  // namespace

std::vector<TrainRecord> GenerateTrainRecords(std::uint64_t records, std::uint64_t seed) {
  static const char* kDomains[] = {"example.org", "mail.example", "post.example", "web.example"};
  Random r(seed);
  std::vector<TrainRecord> out;
  out.reserve(records + 3);
  for (std::uint64_t person = 1; out.size() < records; ++person) {
    TrainRecord p;
    p.person = person;
    const std::string given = Word(Zipf(r, 3000), 1), surname = Word(Zipf(r, 40000), 2);
    p.name = given + " " + surname;
    p.birth_date = Date(r);
    p.city = Word(Zipf(r, 2000), 3);
    if (r.Below(10) < 7) {
      p.email = given + "." + surname + std::to_string(r.Below(100)) + "@" +
                kDomains[r.Below(std::size(kDomains))];
    }
    const int copies = 1 + static_cast<int>(r.Below(4));
    for (int i = 0; i < copies; ++i) out.push_back(Copy(p, r, i == 0));
  }
  return out;
}

}  // namespace idres::bench

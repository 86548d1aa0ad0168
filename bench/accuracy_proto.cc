// Prototype: in-memory record-level resolution of a labelled CSV, pairwise
// precision/recall/F1. Development only.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "batch/csv_mapping.h"
#include "batch/input_reader.h"
#include "engine/detail/prepared_record.h"
#include "matcher/lock_plan.h"
#include "matcher/matcher.h"
#include "matcher/model_file.h"
#include "normalize/normalizer.h"

using namespace idres;

struct Rec {
  std::vector<Identifier> values;
  LockPlan plan;
  std::string truth;
  std::string raw;
};

struct PPerson {
  std::vector<int> recs;
  bool live = true;
  std::set<Identifier> values;
  std::set<std::int64_t> keys;
  std::vector<Identifier> profile;
  std::vector<std::int64_t> profile_keys;
};

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: proto FILE TRUTHCOL map... [--region XX] [--model F] [--dump N]\n";
    return 2;
  }
  std::string file = argv[1], truth_col = argv[2], region, model_file;
  int dump = 0, why = 0, missed = 0;
  bool use_profile = false, no_keys = false, levels = false;
  std::string show_level;
  batch::CsvMapping mapping;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--region") {
      region = argv[++i];
    } else if (a == "--model") {
      model_file = argv[++i];
    } else if (a == "--show-level") {
      show_level = argv[++i];
      levels = true;
    } else if (a == "--levels") {
      levels = true;
    } else if (a == "--nokeys") {
      no_keys = true;
    } else if (a == "--union") {
      g_union_experiment = true;
    } else if (a == "--profile") {
      use_profile = true;
    } else if (a == "--missed") {
      missed = std::stoi(argv[++i]);
    } else if (a == "--why") {
      why = std::stoi(argv[++i]);
    } else if (a == "--dump") {
      dump = std::stoi(argv[++i]);
    } else if (auto e = mapping.AddIdentifier(a)) {
      std::cerr << *e << "\n";
      return 2;
    }
  }
  mapping.AddTrait("__truth=" + truth_col);
  Model model = Model::Defaults();
  if (!model_file.empty()) {
    auto m = LoadModelFile(model_file);
    if (auto* e = std::get_if<std::string>(&m)) {
      std::cerr << *e << "\n";
      return 2;
    }
    model = std::get<Model>(m);
  }
  NormalizerConfig nc = NormalizerConfig::Defaults();
  for (auto& [t, k] : model.NormalizerKinds()) nc.kinds[t] = k;
  if (!region.empty()) nc.default_region = region;
  const Normalizer normalizer(nc);
  const LockPlanner planner(model);
  const Matcher matcher(model);
  auto opened = batch::InputReader::Open(file, batch::InputFormat::kAuto, mapping);
  if (auto* e = std::get_if<std::string>(&opened)) {
    std::cerr << *e << "\n";
    return 2;
  }
  auto& reader = *std::get<std::unique_ptr<batch::InputReader>>(opened);
  std::vector<Rec> recs;
  batch::InputRecord in;
  int refused = 0;
  while (reader.Next(&in)) {
    auto* rec = std::get_if<Record>(&in.parsed);
    if (!rec) continue;
    Rec r;
    r.truth = std::get<std::string>(rec->traits.at("__truth"));
    if (r.truth.rfind("rec-", 0) == 0) r.truth = r.truth.substr(4, r.truth.find('-', 4) - 4);
    rec->traits.clear();
    auto p = detail::PrepareRecord(*rec, normalizer, planner, {100, 100});
    r.raw = in.raw;
    if (p.error) {
      ++refused;
      r.plan.error = p.error;
    } else {
      r.values = p.identifiers;
      r.plan = p.plan;
    }
    recs.push_back(std::move(r));
  }
  if (levels) {
    // m from the true pairs, u from random pairs: per type and level.
    std::map<std::string, std::map<std::string, double>> m, u;
    std::map<std::string, double> mn, un;
    auto tally = [&](int a, int b, auto& to, auto& n) {
      const Score sc = matcher.Compare(recs[a].values, recs[b].values, ValueCounts{});
      for (auto& c : sc.comparisons) {
        to[c.type][c.level] += 1;
        n[c.type] += 1;
        if (&to == &m && !show_level.empty() && c.type + ":" + c.level == show_level)
          std::printf("  %s | %s\n", c.record_value.c_str(), c.person_value.c_str());
      }
    };
    std::map<std::string, std::vector<int>> by_truth;
    for (std::size_t i = 0; i < recs.size(); ++i)
      if (!recs[i].plan.error) by_truth[recs[i].truth].push_back(static_cast<int>(i));
    for (auto& [t, members] : by_truth)
      for (std::size_t x = 0; x < members.size(); ++x)
        for (std::size_t y = x + 1; y < members.size(); ++y) tally(members[x], members[y], m, mn);
    std::uint64_t seed = 12345;
    auto rnd = [&]() { seed = seed * 6364136223846793005ULL + 1442695040888963407ULL; return seed >> 33; };
    for (int k = 0; k < 300000; ++k) {
      int a = static_cast<int>(rnd() % recs.size()), b = static_cast<int>(rnd() % recs.size());
      if (recs[a].truth == recs[b].truth || recs[a].plan.error || recs[b].plan.error) continue;
      tally(a, b, u, un);
    }
    for (auto& [type, lv] : m) {
      const TypeModel* t = model.Find(type);
      for (auto& l : t->levels) {
        double mm = m[type][l.name] / std::max(1.0, mn[type]), uu = u[type][l.name] / std::max(1.0, un[type]);
        std::printf("%-12s %-18s m %.4f u %.5f  w %6.2f   (model %6.2f)\n", type.c_str(), l.name.c_str(), mm, uu,
                    (mm > 0 && uu > 0) ? std::log2(mm / uu) : (mm > 0 ? 99.0 : -99.0), l.weight());
      }
    }
    return 0;
  }
  // Resolution.
  std::vector<PPerson> persons;
  std::vector<int> person_of(recs.size(), -1);
  std::map<std::int64_t, std::set<int>> key_holders;
  std::map<Identifier, std::set<int>> holders;
  ValueCounts counts;
  // The person's profile: per type the values most of its records hold
  // (ties of at most two kept), as a virtual record.
  auto profile_of = [&](const PPerson& p) {
    std::map<std::string, std::map<std::string, int>> support;
    for (int r : p.recs)
      for (auto& v : recs[r].values) ++support[v.type][v.value];
    std::vector<Identifier> out;
    for (auto& [type, values] : support) {
      int best = 0;
      for (auto& [v, n] : values) best = std::max(best, n);
      std::vector<std::string> top;
      for (auto& [v, n] : values) if (n == best) top.push_back(v);
      if (top.size() > 2) continue;
      for (auto& v : top) out.push_back({type, v});
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  auto reindex = [&](int pi) {
    PPerson& p = persons[pi];
    for (auto k : p.keys) key_holders[k].erase(pi);
    p.keys.clear();
    if (!p.live) return;
    for (int r : p.recs) p.keys.insert(recs[r].plan.match_keys.begin(), recs[r].plan.match_keys.end());
    if (use_profile && p.recs.size() > 1) {
      p.profile = profile_of(p);
      bool t = false;
      auto pk = planner.MatchKeys(p.profile, 4096, &t);
      p.profile_keys.assign(pk.begin(), pk.end());
      p.keys.insert(pk.begin(), pk.end());
    } else {
      p.profile.clear();
      p.profile_keys.clear();
    }
    for (auto k : p.keys) key_holders[k].insert(pi);
  };
  auto add_rec = [&](int pi, int ri) {
    PPerson& p = persons[pi];
    p.recs.push_back(ri);
    person_of[ri] = pi;
    for (auto& v : recs[ri].values) {
      if (p.values.insert(v).second) {
        holders[v].insert(pi);
        ++counts[v];
      }
    }
    reindex(pi);
  };
  auto shares_key = [&](const std::vector<std::int64_t>& mine, const std::vector<std::int64_t>& theirs) {
    if (no_keys) return true;
    for (auto k : mine)
      if (std::binary_search(theirs.begin(), theirs.end(), k) && key_holders[k].size() <= model.key_cap) return true;
    return false;
  };
  long compared = 0;
  for (int ri = 0; ri < static_cast<int>(recs.size()); ++ri) {
    const Rec& R = recs[ri];
    if (R.plan.error) continue;
    std::set<int> cands;
    if (no_keys)
      for (int pi = 0; pi < static_cast<int>(persons.size()); ++pi)
        if (persons[pi].live) cands.insert(pi);
    for (auto k : R.plan.match_keys) {
      auto it = key_holders.find(k);
      if (it != key_holders.end() && it->second.size() <= model.key_cap)
        cands.insert(it->second.begin(), it->second.end());
    }
    for (auto& v : R.plan.lookups) {
      auto it = holders.find(v);
      if (it != holders.end() && !matcher.Generic(v, counts))
        cands.insert(it->second.begin(), it->second.end());
    }
    std::vector<Candidate> cs;
    std::vector<std::vector<int>> cand_recs;
    for (int pi : cands) {
      const PPerson& p = persons[pi];
      Candidate c;
      c.person_id = pi + 1;
      std::vector<int> which;
      for (int r2 : p.recs) {
        bool shares = shares_key(R.plan.match_keys, recs[r2].plan.match_keys);
        if (!shares) {
          for (auto& v : R.plan.lookups) {
            if (std::binary_search(recs[r2].values.begin(), recs[r2].values.end(), v) &&
                !matcher.Generic(v, counts)) {
              shares = true;
              break;
            }
          }
        }
        if (shares) {
          c.records.push_back(recs[r2].values);
          which.push_back(r2);
        }
      }
      if (!p.profile.empty() && shares_key(R.plan.match_keys, p.profile_keys)) {
        c.records.push_back(p.profile);
        which.push_back(-1);
      }
      c.identifiers.assign(p.values.begin(), p.values.end());
      compared += c.records.size();
      if (!c.records.empty()) {
        cs.push_back(std::move(c));
        cand_recs.push_back(which);
      }
    }
    MatchDecision d = matcher.Decide(R.values, cs, counts, {});
    if (why > 0) {
      for (std::int64_t m : d.matches) {
        std::size_t ci = 0;
        while (cs[ci].person_id != m) ++ci;
        const Score& sc = d.details.at(m);
        int best_rec = sc.record < cand_recs[ci].size() ? cand_recs[ci][sc.record] : -1;
        std::string truth = best_rec >= 0 ? recs[best_rec].truth : "?";
        if (best_rec < 0) {
          // profile: majority truth of the person
          std::map<std::string, int> t;
          for (int r2 : persons[m - 1].recs) ++t[recs[r2].truth];
          int bn = 0;
          for (auto& [k, n] : t) if (n > bn) { bn = n; truth = k; }
        }
        if (truth != R.truth) {
          --why;
          std::string other = best_rec >= 0 ? recs[best_rec].raw : "PROFILE";
          if (best_rec < 0) for (auto& v : persons[m - 1].profile) other += " " + v.type + "=" + v.value;
          std::printf("FALSE LINK %.2f%s\n  R: %s\n  r: %s\n", sc.total, sc.strong_exact ? " strong" : "",
                      R.raw.c_str(), other.c_str());
          for (auto& cmp : sc.comparisons)
            std::printf("    %s %s %+.2f (tf %.2f)%s  [%s | %s]\n", cmp.type.c_str(), cmp.level.c_str(), cmp.weight,
                        cmp.tf_adjustment, cmp.counted ? "" : " (not counted)", cmp.record_value.c_str(), cmp.person_value.c_str());
        }
      }
    }
    if (d.matches.empty()) {
      persons.push_back({});
      add_rec(static_cast<int>(persons.size()) - 1, ri);
      continue;
    }
    int surv = static_cast<int>(d.matches.front() - 1);
    for (std::size_t m = 1; m < d.matches.size(); ++m) {
      int gone = static_cast<int>(d.matches[m] - 1);
      for (int r2 : persons[gone].recs) {
        person_of[r2] = surv;
        persons[surv].recs.push_back(r2);
      }
      for (auto& v : persons[gone].values) {
        holders[v].erase(gone);
        if (persons[surv].values.insert(v).second) {
          holders[v].insert(surv);
        } else {
          --counts[v];
        }
      }
      persons[gone].recs.clear();
      persons[gone].values.clear();
      persons[gone].live = false;
      reindex(gone);
    }
    add_rec(surv, ri);
  }
  // Pairwise metrics.
  std::map<int, std::map<std::string, long>> by_person;
  std::map<std::string, long> truth_sizes;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    ++truth_sizes[recs[i].truth];
    int p = person_of[i] >= 0 ? person_of[i] : -1 - static_cast<int>(i);
    ++by_person[p][recs[i].truth];
  }
  auto pairs = [](long n) { return n * (n - 1) / 2; };
  long found = 0, right = 0, real = 0, largest = 0;
  for (auto& [p, cl] : by_person) {
    long n = 0;
    for (auto& [t, c] : cl) {
      n += c;
      right += pairs(c);
    }
    found += pairs(n);
    largest = std::max(largest, n);
  }
  long largest_true = 0;
  for (auto& [t, n] : truth_sizes) {
    real += pairs(n);
    largest_true = std::max(largest_true, n);
  }
  double prec = found ? double(right) / found : 0, rec = real ? double(right) / real : 0;
  std::printf(
      "%s: %zu records, %zu persons (true %zu), refused %d, compared %.1f/rec, largest %ld (true "
      "%ld)\n  precision %.4f recall %.4f F1 %.4f\n",
      file.substr(file.rfind('/') + 1).c_str(), recs.size(), by_person.size(), truth_sizes.size(),
      refused, double(compared) / recs.size(), largest, largest_true, prec, rec,
      2 * prec * rec / (prec + rec));
  if (missed > 0) {
    std::map<std::string, std::vector<int>> by_truth;
    for (std::size_t i = 0; i < recs.size(); ++i) by_truth[recs[i].truth].push_back(static_cast<int>(i));
    for (auto& [t, members] : by_truth) {
      if (missed <= 0) break;
      for (std::size_t x = 0; x < members.size() && missed > 0; ++x) {
        for (std::size_t y = x + 1; y < members.size() && missed > 0; ++y) {
          int a = members[x], b = members[y];
          if (person_of[a] == person_of[b]) continue;
          --missed;
          Score sc = matcher.Compare(recs[a].values, recs[b].values, counts);
          bool share = false;
          for (auto k : recs[a].plan.match_keys)
            if (std::binary_search(recs[b].plan.match_keys.begin(), recs[b].plan.match_keys.end(), k)) share = true;
          std::printf("MISSED %.2f%s%s\n  a: %s\n  b: %s\n", sc.total, sc.strong_exact ? " strong" : "",
                      share ? "" : " NOKEY", recs[a].raw.c_str(), recs[b].raw.c_str());
          for (auto& cmp : sc.comparisons)
            std::printf("    %s %s %+.2f (tf %.2f)%s\n", cmp.type.c_str(), cmp.level.c_str(), cmp.weight,
                        cmp.tf_adjustment, cmp.counted ? "" : " (not counted)");
        }
      }
    }
  }
  if (dump > 0) {
    // Worst false merges: persons with several truths.
    std::vector<std::pair<long, int>> mixed;
    for (auto& [p, cl] : by_person) {
      if (cl.size() < 2) continue;
      long n = 0, best = 0;
      for (auto& [t, c] : cl) {
        n += c;
        best = std::max(best, c);
      }
      mixed.push_back({pairs(n) - 0, p});
    }
    std::sort(mixed.rbegin(), mixed.rend());
    for (int k = 0; k < dump && k < static_cast<int>(mixed.size()); ++k) {
      std::printf("--- person %d\n", mixed[k].second);
      for (std::size_t i = 0; i < recs.size(); ++i)
        if (person_of[i] == mixed[k].second)
          std::printf("  [%s] %s\n", recs[i].truth.c_str(), recs[i].raw.c_str());
    }
  }
  return 0;
}

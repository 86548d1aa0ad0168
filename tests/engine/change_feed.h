// Helpers for the change feed's tests (engine/change.h, Engine::ListChanges):
// reading the whole feed and comparing changes by what they say.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "engine/engine.h"
#include "tests/support/test_db.h"

namespace idres::testing {

// What a change says, without its time: (person, kind, other or 0).
struct Said {
  std::int64_t person = 0;
  ChangeKind kind = ChangeKind::kCreated;
  std::int64_t other = 0;
  friend bool operator==(const Said&, const Said&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Said& s) {
    return os << s.person << " " << ChangeKindName(s.kind) << " " << s.other;
  }
};

Said SaidBy(const Change& c);
std::vector<Said> SaidBy(const std::vector<Change>& changes);

// Every change after `after`, page by page.
std::vector<Change> AllChanges(Engine& engine, std::int64_t after = 0);

// What each person's changes say, in the order listed: (person, kinds).
std::vector<std::pair<std::int64_t, std::vector<ChangeKind>>> KindsByPerson(
    const std::vector<Change>& changes);

// A downstream consumer: it keeps the last position it processed and asks
// for what comes after it. Thread-safety: one thread.
class Consumer {
 public:
  // A consumer that has processed every change up to `after`.
  explicit Consumer(Engine& engine, std::int64_t after = 0) : engine_(engine), last_(after) {}
  // One ListChanges after the last position; returns the page.
  std::vector<Change> Poll();
  // Polls until a poll lists nothing.
  void Drain();
  const std::vector<Change>& seen() const { return seen_; }

 private:
  Engine& engine_;
  std::int64_t last_;
  std::vector<Change> seen_;
};

// The table's committed rows in position order, as the feed should list
// them (numbered rows only).
std::vector<Said> NumberedRows(const TestDatabase& db);

}  // namespace idres::testing

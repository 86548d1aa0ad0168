// RecordTable: the records training learns from, each the normalized values
// it holds, in the order they were read. Values of a type the model does
// not know, and values that stand for none (matcher/comparisons.h,
// NoEvidence: the placeholder birth date), are left out (they take no part
// in matching), and a record left with no value is not kept. Values are
// numbered through a ValueDictionary, which also counts how many records
// hold each (the term-frequency table).
// Thread-safety: one writer; any number of readers once writing is over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "matcher/model.h"
#include "normalize/identifier.h"
#include "train/value_dictionary.h"

namespace idres::train {

// One value of a record: its type (an index into RecordTable::types()) and
// its number in the dictionary.
struct Value {
  std::uint16_t type;
  std::uint32_t id;
  auto operator<=>(const Value&) const = default;
};

class RecordTable {
 public:
  // The model's types, in the model's (name) order, are the table's.
  explicit RecordTable(const Model& model);

  // Adds a record holding `values`; false when none of them is of a known
  // type (nothing is added).
  bool Add(std::span<const Identifier> values);

  std::size_t size() const { return starts_.size() - 1; }
  // The record's values, sorted by type and number; one per distinct value.
  std::span<const Value> Values(std::size_t record) const {
    return std::span<const Value>(values_).subspan(starts_[record],
                                                   starts_[record + 1] - starts_[record]);
  }
  // The record's values as identifiers, sorted (as the engine holds them).
  std::vector<Identifier> Identifiers(std::size_t record) const;

  const std::vector<std::string>& types() const { return types_; }
  const ValueDictionary& dictionary() const { return dictionary_; }
  // Records holding a value of type `type`.
  std::size_t Holding(std::uint16_t type) const { return holding_[type]; }

 private:
  std::vector<std::string> types_;
  std::vector<ComparisonKind> kinds_;  // per type
  ValueDictionary dictionary_;
  std::vector<Value> values_;
  std::vector<std::uint64_t> starts_{0};
  std::vector<std::size_t> holding_;
};

}  // namespace idres::train

// ValueDictionary: every distinct (type, value) of the training records
// once, numbered densely from 0 in the order first seen, with how many
// records hold it (the term-frequency table). The texts sit in one arena
// and the index is an open-addressing table of numbers, so a million
// records' values cost little more than their bytes.
// Thread-safety: one writer; readers only once writing is over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idres::train {

class ValueDictionary {
 public:
  // The number of (type, text), added with a holder more when new or not.
  std::uint32_t Add(std::uint16_t type, std::string_view text);

  std::size_t size() const { return types_.size(); }
  std::uint16_t type(std::uint32_t id) const { return types_[id]; }
  std::string_view text(std::uint32_t id) const {
    return std::string_view(arena_).substr(starts_[id], starts_[id + 1] - starts_[id]);
  }
  // Records holding the value.
  std::uint32_t holders(std::uint32_t id) const { return holders_[id]; }

 private:
  std::size_t Slot(std::uint16_t type, std::string_view text) const;
  void Grow();

  std::string arena_;
  std::vector<std::uint64_t> starts_{0};
  std::vector<std::uint16_t> types_;
  std::vector<std::uint32_t> holders_;
  std::vector<std::uint32_t> table_;  // id + 1; 0: empty
};

}  // namespace idres::train

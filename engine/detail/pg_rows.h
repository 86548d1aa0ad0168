// Rows: the rows one statement returned, as text, over libpq's result;
// and DatabaseError, what a failed statement or a lost connection throws
// (engine/sqlstate.cc classifies it). Cheap to copy (shared, immutable).
// Thread-safety: a Rows may be read from many threads. Internal to engine/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

struct pg_result;

namespace idres::detail {

class DatabaseError : public std::runtime_error {
 public:
  // `sqlstate` empty and `lost`: the connection is gone.
  DatabaseError(std::string message, std::string sqlstate, bool lost)
      : std::runtime_error(std::move(message)), sqlstate_(std::move(sqlstate)), lost_(lost) {}
  const std::string& sqlstate() const { return sqlstate_; }
  bool lost() const { return lost_; }

 private:
  std::string sqlstate_;
  bool lost_;
};

class Rows {
 public:
  class Field {
   public:
    bool is_null() const;
    // The value as T: std::string or std::int64_t.
    template <typename T>
    T as() const;

   private:
    friend class Rows;
    Field(const pg_result* r, int row, int col) : r_(r), row_(row), col_(col) {}
    const pg_result* r_;
    int row_, col_;
  };
  // A row, and an iterator over the rows (a range-for's element).
  class Row {
   public:
    Field operator[](int col) const { return Field(r_, row_, col); }
    const Row& operator*() const { return *this; }
    Row& operator++() {
      ++row_;
      return *this;
    }
    bool operator!=(const Row& o) const { return row_ != o.row_; }

   private:
    friend class Rows;
    Row(const pg_result* r, int row) : r_(r), row_(row) {}
    const pg_result* r_;
    int row_;
  };

  Rows() = default;  // no rows
  // Takes ownership of `r` (may be null: no rows).
  explicit Rows(pg_result* r);

  std::size_t size() const;
  bool empty() const { return size() == 0; }
  Row operator[](std::size_t row) const { return Row(r_.get(), static_cast<int>(row)); }
  // operator[] after a bounds check (std::out_of_range).
  Row at(std::size_t row) const;
  Row begin() const { return Row(r_.get(), 0); }
  Row end() const { return Row(r_.get(), static_cast<int>(size())); }

 private:
  std::shared_ptr<pg_result> r_;
};

template <>
std::string Rows::Field::as<std::string>() const;
template <>
std::int64_t Rows::Field::as<std::int64_t>() const;

}  // namespace idres::detail

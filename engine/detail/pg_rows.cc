#include "engine/detail/pg_rows.h"

#include <libpq-fe.h>

#include <charconv>

namespace idres::detail {

Rows::Rows(pg_result* r) : r_(r, [](pg_result* p) { PQclear(p); }) {}

std::size_t Rows::size() const { return r_ ? static_cast<std::size_t>(PQntuples(r_.get())) : 0; }

Rows::Row Rows::at(std::size_t row) const {
  if (row >= size()) throw std::out_of_range("no such row");
  return (*this)[row];
}

bool Rows::Field::is_null() const { return PQgetisnull(r_, row_, col_) == 1; }

template <>
std::string Rows::Field::as<std::string>() const {
  return std::string(PQgetvalue(r_, row_, col_), PQgetlength(r_, row_, col_));
}

template <>
std::int64_t Rows::Field::as<std::int64_t>() const {
  const char* text = PQgetvalue(r_, row_, col_);
  const char* end = text + PQgetlength(r_, row_, col_);
  std::int64_t v = 0;
  const auto [at, ec] = std::from_chars(text, end, v);
  if (ec != std::errc() || at != end) throw std::runtime_error("not a bigint in a result");
  return v;
}

}  // namespace idres::detail

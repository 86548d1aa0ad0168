#include "engine/record_snapshot.h"

#include <algorithm>
#include <string_view>

#include "engine/detail/pg_conn.h"
#include "engine/detail/sqlstate.h"
#include "engine/errors.h"

namespace idres {
namespace {

constexpr const char* kBeginSnapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY";
constexpr const char* kCountRecords = "SELECT count(*) FROM records";
// The records after id $1, at most $2 of them, a row per value (a record
// without values as one row of NULLs, so the page still ends at its id).
constexpr const char* kRecordPage =
    "SELECT r.id, x.t, x.v FROM (SELECT id, types, vals FROM records WHERE id > $1::bigint"
    " ORDER BY id LIMIT $2::int) r LEFT JOIN LATERAL unnest(r.types, r.vals) AS x(t, v) ON true"
    " ORDER BY r.id";
constexpr const char* kEndSnapshot = "COMMIT";
constexpr int kPageRecords = 5000;
constexpr long long kConnectTimeoutSeconds = 10;

// Hands out the records of one page; the id of its last record, or 0 when
// it held none.
std::int64_t EachOfPage(const detail::Rows& rows,
                        const std::function<void(std::vector<Identifier>&&)>& each) {
  std::int64_t last = 0;
  std::vector<Identifier> values;
  for (const auto& row : rows) {
    const std::int64_t id = row[0].as<std::int64_t>();
    if (id != last && last != 0) {
      std::sort(values.begin(), values.end());
      each(std::move(values));
      values.clear();
    }
    last = id;
    if (!row[1].is_null()) values.push_back({row[1].as<std::string>(), row[2].as<std::string>()});
  }
  if (last != 0) {
    std::sort(values.begin(), values.end());
    each(std::move(values));
  }
  return last;
}

void ReadAll(const std::string& url, const std::function<void(std::uint64_t)>& count,
             const std::function<void(std::vector<Identifier>&&)>& each) {
  detail::PgConn conn(url, false, kConnectTimeoutSeconds);
  const detail::Call open[] = {{nullptr, kBeginSnapshot, {}}, {nullptr, kCountRecords, {}}};
  const auto counted = conn.Run(open);
  count(static_cast<std::uint64_t>(counted[1][0][0].as<std::int64_t>()));
  std::int64_t after = 0;
  while (true) {
    const detail::Call page[] = {
        {nullptr, kRecordPage, {std::to_string(after), std::to_string(kPageRecords)}}};
    const std::int64_t last = EachOfPage(conn.Run(page)[0], each);
    if (last == 0) break;
    after = last;
  }
  const detail::Call close[] = {{nullptr, kEndSnapshot, {}}};
  conn.Run(close);
}

}  // namespace

void ReadRecordSnapshot(const std::string& url, const std::function<void(std::uint64_t)>& count,
                        const std::function<void(std::vector<Identifier>&&)>& each) {
  try {
    ReadAll(url, count, each);
  } catch (const detail::DatabaseError& e) {
    // 42P01 undefined_table: a database that idres never migrated.
    if (e.sqlstate() == "42P01") throw StoreError("the database holds no idres store (no records)");
    detail::ThrowEngineError(detail::Classify(e), e);
  }
}

}  // namespace idres

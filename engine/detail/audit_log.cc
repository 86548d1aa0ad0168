#include "engine/detail/audit_log.h"

#include <algorithm>
#include <cstdio>

#include "engine/detail/pg_array.h"

namespace idres::detail {
namespace {

// `s` as a JSON string. Control characters are escaped; the rest of the
// text goes as it is (the store's text is UTF-8).
std::string Quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string RecordObject(std::string_view source, std::string_view record_id) {
  return "{\"source\":" + Quoted(source) + ",\"recordId\":" + Quoted(record_id) + "}";
}

std::vector<std::int64_t> Ids(const std::string& joined) {
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (start < joined.size()) {
    const std::size_t end = std::min(joined.find(',', start), joined.size());
    out.push_back(std::stoll(joined.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

}  // namespace

void SetActor(Tx& tx, const AuditNote& note) { tx.Defer(kSetActor, std::string(note.actor)); }

void WriteAudit(Tx& tx, const AuditNote& note, std::span<const std::int64_t> persons) {
  tx.Defer(kWriteAudit, std::string(note.actor), std::string(note.action), BigintArray(persons),
           note.request);
}

std::string PersonRequest(std::int64_t person_id) {
  return "{\"personId\":" + std::to_string(person_id) + "}";
}

std::string PairRequest(std::int64_t a, std::int64_t b) {
  return "{\"personA\":" + std::to_string(a) + ",\"personB\":" + std::to_string(b) + "}";
}

std::string RecordRequest(std::string_view source, std::string_view record_id) {
  return RecordObject(source, record_id);
}

std::string SplitRequest(std::int64_t person_id,
                         const std::vector<std::vector<RecordRef>>& groups) {
  std::string out = "{\"personId\":" + std::to_string(person_id) + ",\"groups\":[";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    out += g ? ",[" : "[";
    for (std::size_t r = 0; r < groups[g].size(); ++r) {
      if (r) out += ',';
      out += RecordObject(groups[g][r].source, groups[g][r].record_id);
    }
    out += ']';
  }
  return out + "]}";
}

std::vector<AuditEntry> ReadAudit(Tx& tx,
                                  std::optional<std::chrono::system_clock::time_point> since,
                                  std::int64_t after, std::size_t limit) {
  std::int64_t from = 0;  // the epoch: before any entry
  if (since) {
    from = std::chrono::duration_cast<std::chrono::microseconds>(since->time_since_epoch()).count();
  }
  std::vector<AuditEntry> out;
  for (const auto& row : tx.Exec(kReadAudit, from, after, static_cast<std::int64_t>(limit))) {
    AuditEntry e;
    e.seq = row[0].as<std::int64_t>();
    e.at = FromMicros(row[1].as<std::int64_t>());
    e.actor = row[2].as<std::string>();
    e.action = row[3].as<std::string>();
    e.persons = Ids(row[4].as<std::string>());
    e.request = row[5].as<std::string>();
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace idres::detail

#include "engine/detail/pg_conn.h"

#include <libpq-fe.h>
#include <poll.h>
#include <spdlog/spdlog.h>

#include <optional>

#include "engine/detail/statements.h"

namespace idres::detail {
namespace {

bool Readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) != 0;
}

// Notices (a ROLLBACK outside a transaction, say) are not errors.
void LogNotice(void*, const char* message) { spdlog::debug("postgres: {}", message); }

std::string ErrorText(const PGresult* r) {
  const char* m = PQresultErrorMessage(r);
  return m != nullptr && *m != '\0' ? m : "database error";
}

std::string Sqlstate(const PGresult* r) {
  const char* s = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  return s != nullptr ? s : "";
}

// libpq's connect_timeout 0 waits without a bound; a value `conninfo` holds
// (expanded from "dbname") overrides the one before it.
pg_conn* Connect(const std::string& conninfo, long long connect_timeout) {
  const std::string timeout = std::to_string(connect_timeout);
  const char* const keywords[] = {"connect_timeout", "dbname", nullptr};
  const char* const values[] = {timeout.c_str(), conninfo.c_str(), nullptr};
  return PQconnectdbParams(keywords, values, 1);
}

}  // namespace

PgConn::PgConn(const std::string& conninfo, bool prepare, long long connect_timeout)
    : conn_(Connect(conninfo, connect_timeout)), prepared_(prepare) {
  if (conn_ == nullptr) throw DatabaseError("out of memory", "", true);
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string why = PQerrorMessage(conn_);
    PQfinish(conn_);
    throw DatabaseError(why, "", true);
  }
  PQsetNoticeProcessor(conn_, LogNotice, nullptr);
  if (!prepare) return;
  try {
    // One round trip: the session setting and every statement's Parse.
    if (PQenterPipelineMode(conn_) != 1) ThrowLost("entering pipeline mode");
    if (PQsendQueryParams(conn_, kPreparedSession, 0, nullptr, nullptr, nullptr, nullptr, 0) != 1) {
      ThrowLost("preparing");
    }
    for (const Statement& s : AllStatements()) {
      if (PQsendPrepare(conn_, s.name, s.sql, 0, nullptr) != 1) ThrowLost("preparing");
    }
    if (PQpipelineSync(conn_) != 1) ThrowLost("preparing");
    Collect();
  } catch (...) {
    PQfinish(conn_);
    throw;
  }
}

PgConn::~PgConn() { PQfinish(conn_); }

bool PgConn::ok() const { return PQstatus(conn_) == CONNECTION_OK; }

int PgConn::socket() const { return PQsocket(conn_); }

bool PgConn::StillUp() {
  const int fd = PQsocket(conn_);
  if (fd < 0 || !ok()) return false;
  if (!Readable(fd)) return true;
  if (PQconsumeInput(conn_) != 1) return false;  // takes in what arrived
  return ok() && !Readable(fd);
}

void PgConn::ThrowLost(const char* what) const {
  throw DatabaseError(std::string(what) + ": " + PQerrorMessage(conn_), "", true);
}

void PgConn::Script(const std::string& script) {
  PGresult* last = PQexec(conn_, script.c_str());
  const Rows owner(last);  // clears it
  const auto status = PQresultStatus(last);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
  if (!ok()) ThrowLost("the connection was lost");
  throw DatabaseError(ErrorText(last), Sqlstate(last), false);
}

std::vector<Rows> PgConn::Run(std::span<const Call> calls) {
  if (PQenterPipelineMode(conn_) != 1) ThrowLost("entering pipeline mode");
  for (const Call& c : calls) {
    std::vector<const char*> values;
    values.reserve(c.params.size());
    for (const std::string& p : c.params) values.push_back(p.c_str());
    const int n = static_cast<int>(values.size());
    const int sent =
        prepared_ && c.name != nullptr
            ? PQsendQueryPrepared(conn_, c.name, n, values.data(), nullptr, nullptr, 0)
            : PQsendQueryParams(conn_, c.sql, n, nullptr, values.data(), nullptr, nullptr, 0);
    if (sent != 1) ThrowLost("sending");
  }
  if (PQpipelineSync(conn_) != 1) ThrowLost("sending");
  return Collect();
}

std::vector<Rows> PgConn::Collect() {
  std::vector<Rows> out;
  std::optional<DatabaseError> failed;
  // Each call's results end with a null; the Sync's result ends the message.
  while (true) {
    PGresult* r = PQgetResult(conn_);
    if (r == nullptr) {
      if (!ok()) ThrowLost("the connection was lost");
      continue;
    }
    Rows rows(r);
    switch (PQresultStatus(r)) {
      case PGRES_PIPELINE_SYNC:
        if (PQexitPipelineMode(conn_) != 1) ThrowLost("leaving pipeline mode");
        if (failed) throw *failed;
        return out;
      case PGRES_TUPLES_OK:
      case PGRES_COMMAND_OK:
        out.push_back(std::move(rows));
        break;
      case PGRES_PIPELINE_ABORTED:  // after the error: did not run
        out.emplace_back();
        break;
      default:
        if (!ok()) ThrowLost("the connection was lost");
        if (!failed) failed.emplace(ErrorText(r), Sqlstate(r), false);
        out.emplace_back();
        break;
    }
  }
}

}  // namespace idres::detail

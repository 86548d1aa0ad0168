// WireCounter: a TCP proxy in front of PostgreSQL that reads the frontend
// protocol passing through it and counts, per direction client -> server:
//   round trips  = simple Query messages ('Q') + Sync messages ('S'): each is
//                  one wait for the server's ReadyForQuery;
//   statements   = SQL statements in each 'Q' (split on ';') + Execute ('E');
//   transactions = statements starting with BEGIN: in a 'Q', or an Execute
//                  of a statement whose Parse ('P') was a BEGIN.
// That is exact for any client on the wire (the engine, `idres serve`,
// pgbench) and needs no server extension. Only for the counting passes: the
// extra hop would distort timings. Needs TLS off (ThroughProxy() below).
//
// Thread-safety: Totals() may be called from any thread; the proxy runs its
// own threads (one per direction of each connection) until destroyed.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include <string>

#include "base/mutex.h"
#include "bench/suite/results.h"
#include "engine/database_url.h"

namespace idres::bench {

struct WireTotals {
  std::int64_t round_trips = 0;
  std::int64_t statements = 0;
  std::int64_t transactions = 0;
  WireTotals operator-(const WireTotals& o) const {
    return {round_trips - o.round_trips, statements - o.statements, transactions - o.transactions};
  }
};

// `counted` per operation of `ops` (0 when there were none), as shape `shape`.
WireCount PerOp(std::string shape, const WireTotals& counted, std::int64_t ops);

class WireCounter {
 public:
  // Listens on 127.0.0.1 (a free port) and forwards to `upstream`.
  explicit WireCounter(HostPort upstream);
  // Closes every proxied connection and joins the threads.
  ~WireCounter();
  WireCounter(const WireCounter&) = delete;
  WireCounter& operator=(const WireCounter&) = delete;

  // Where clients connect.
  HostPort address() const { return {"127.0.0.1", port_}; }

  // Counts since construction.
  WireTotals Totals() const;

  // Counts the frontend messages in `bytes`, the start of a client stream
  // (startup packet first); exposed for tests of the parser.
  static WireTotals CountStream(const std::string& bytes);

 private:
  void AcceptLoop();
  void Serve(int client_fd) EXCLUDES(mu_);

  HostPort upstream_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<std::int64_t> round_trips_{0}, statements_{0}, transactions_{0};
  Mutex mu_;
  std::vector<int> fds_ GUARDED_BY(mu_);
  std::vector<std::thread> threads_ GUARDED_BY(mu_);
  std::thread acceptor_;
};

// `url` pointing at `target` instead, with TLS and GSS encryption off (the
// counting proxy reads the protocol in clear).
std::string ThroughProxy(const std::string& url, const HostPort& target);

}  // namespace idres::bench

#include "bench/suite/wire_counter.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace idres::bench {
namespace {

constexpr std::uint32_t kSslRequest = 80877103;
constexpr std::uint32_t kGssEncRequest = 80877104;

std::uint32_t ReadU32(const std::string& b, std::size_t at) {
  return (std::uint32_t(std::uint8_t(b[at])) << 24) |
         (std::uint32_t(std::uint8_t(b[at + 1])) << 16) |
         (std::uint32_t(std::uint8_t(b[at + 2])) << 8) | std::uint32_t(std::uint8_t(b[at + 3]));
}

// Incremental parser of one client -> server stream.
class FrontendParser {
 public:
  // Consumes `bytes`, adding what completed messages hold to `totals`.
  void Feed(const char* data, std::size_t n, WireTotals& totals) {
    buf_.append(data, n);
    std::size_t at = 0;
    for (;;) {
      if (startup_) {
        if (buf_.size() - at < 8) break;
        const std::uint32_t len = ReadU32(buf_, at);
        if (buf_.size() - at < len) break;
        const std::uint32_t code = ReadU32(buf_, at + 4);
        startup_ = code == kSslRequest || code == kGssEncRequest;
        at += len;
        continue;
      }
      if (buf_.size() - at < 5) break;
      const char type = buf_[at];
      const std::uint32_t len = ReadU32(buf_, at + 1);
      if (buf_.size() - at < 1 + std::size_t(len)) break;
      if (type == 'Q') {
        ++totals.round_trips;
        CountSql(buf_.substr(at + 5, len - 4), totals);
      } else if (type == 'S') {
        ++totals.round_trips;
      } else if (type == 'P') {
        Parsed(buf_.substr(at + 5, len - 4));
      } else if (type == 'B') {
        Bound(buf_.substr(at + 5, len - 4));
      } else if (type == 'E') {
        ++totals.statements;
        if (bound_begin_) ++totals.transactions;
      }
      at += 1 + len;
    }
    buf_.erase(0, at);
  }

 private:
  // Blanks, and the NUL that ends a Query message's text.
  static constexpr std::string_view kBlank{" \t\n\v\f\r\0", 7};

  static bool IsBegin(const std::string& sql) {
    const std::size_t first = std::min(sql.find_first_not_of(kBlank), sql.size());
    return strncasecmp(sql.c_str() + first, "BEGIN", 5) == 0;
  }

  static void CountSql(const std::string& sql, WireTotals& totals) {
    for (std::size_t start = 0; start < sql.size();) {
      const std::size_t end = std::min(sql.find(';', start), sql.size());
      const std::string statement = sql.substr(start, end - start);
      if (statement.find_first_not_of(kBlank) != std::string::npos) {
        ++totals.statements;
        if (IsBegin(statement)) ++totals.transactions;
      }
      start = end + 1;
    }
  }

  // The cstring at `at` of a message body, and where the next one starts.
  static std::string CString(const std::string& body, std::size_t& at) {
    const std::size_t end = std::min(body.find('\0', at), body.size());
    std::string out = body.substr(at, end - at);
    at = end + 1;
    return out;
  }

  // Parse: statement name, query. A prepared BEGIN (pgbench -M prepared)
  // shows its text only here, so remember which names are BEGINs.
  void Parsed(const std::string& body) {
    std::size_t at = 0;
    const std::string name = CString(body, at);
    begins_[name] = at < body.size() && IsBegin(CString(body, at));
  }

  // Bind: portal name, statement name: what the next Execute runs.
  void Bound(const std::string& body) {
    std::size_t at = 0;
    CString(body, at);
    const auto it = at < body.size() ? begins_.find(CString(body, at)) : begins_.end();
    bound_begin_ = it != begins_.end() && it->second;
  }

  bool startup_ = true;
  std::string buf_;
  std::map<std::string, bool> begins_;  // prepared statement name -> is a BEGIN
  bool bound_begin_ = false;
};

// Forwards `from` to `to` until either ends; `seen` (if set) reads each chunk first.
void Pump(int from, int to, const std::function<void(const char*, std::size_t)>& seen = {}) {
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::recv(from, chunk, sizeof chunk, 0);
    if (n <= 0) break;
    if (seen) seen(chunk, static_cast<std::size_t>(n));
    if (::send(to, chunk, static_cast<std::size_t>(n), MSG_NOSIGNAL) != n) break;
  }
  ::shutdown(to, SHUT_WR);
}

}  // namespace

WireCount PerOp(std::string shape, const WireTotals& counted, std::int64_t ops) {
  const auto per = [ops](std::int64_t n) {
    return ops > 0 ? static_cast<double>(n) / static_cast<double>(ops) : 0.0;
  };
  return {std::move(shape), ops, per(counted.round_trips), per(counted.statements),
          per(counted.transactions)};
}

WireTotals WireCounter::CountStream(const std::string& bytes) {
  WireTotals totals;
  FrontendParser parser;
  parser.Feed(bytes.data(), bytes.size(), totals);
  return totals;
}

WireCounter::WireCounter(HostPort upstream) : upstream_(std::move(upstream)) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
      ::listen(listen_fd_, 128) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    throw std::runtime_error("wire counter: cannot listen");
  }
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { AcceptLoop(); });
}

WireCounter::~WireCounter() {
  stopping_ = true;
  acceptor_.join();
  ::close(listen_fd_);
  MutexLock lock(&mu_);
  for (int fd : fds_) ::shutdown(fd, SHUT_RDWR);
  for (auto& t : threads_) t.join();
  for (int fd : fds_) ::close(fd);
}

WireTotals WireCounter::Totals() const {
  return {round_trips_.load(), statements_.load(), transactions_.load()};
}

void WireCounter::AcceptLoop() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const int client = ::accept(listen_fd_, nullptr, nullptr);
    if (client < 0) continue;
    Serve(client);
  }
}

void WireCounter::Serve(int client_fd) {
  const int server_fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(upstream_.port));
  ::inet_pton(AF_INET, upstream_.host.c_str(), &addr.sin_addr);
  if (::connect(server_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(server_fd);
    ::close(client_fd);
    return;
  }
  const int one = 1;
  ::setsockopt(server_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ::setsockopt(client_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  MutexLock lock(&mu_);
  fds_.push_back(client_fd);
  fds_.push_back(server_fd);
  threads_.emplace_back([this, client_fd, server_fd] {
    FrontendParser parser;
    Pump(client_fd, server_fd, [&](const char* data, std::size_t n) {
      WireTotals t;
      parser.Feed(data, n, t);
      round_trips_ += t.round_trips;
      statements_ += t.statements;
      transactions_ += t.transactions;
    });
  });
  threads_.emplace_back([client_fd, server_fd] { Pump(server_fd, client_fd); });
}

std::string ThroughProxy(const std::string& url, const HostPort& target) {
  return WithParameter(WithParameter(WithHostPort(url, target), "sslmode", "disable"), "gssencmode",
                       "disable");
}

}  // namespace idres::bench

#include "client/grpc_upserts.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "api/idres/v1/identity.pb.h"
#include "api/service/proto_mapping.h"
#include "api/service/status.h"

namespace idres::client {
namespace {

constexpr char kPath[] = "/idres.v1.IdentityService/Upsert";
// How long a call may go unanswered before its connection is given up: the
// generator sets no gRPC deadline, and a stalled server must not hang it.
constexpr std::chrono::seconds kCallBound{60};

// One call: its request as gRPC frames it (a flag byte, a big-endian length,
// the message), how much of it nghttp2 has taken, and the answer's status.
struct Stream {
  int slot = 0;
  std::chrono::steady_clock::time_point started;
  std::string frame;
  std::size_t taken = 0;
  int grpc_status = -1;  // none seen yet
  std::string grpc_message;
  std::string http_status;
};

// grpc-message is percent-encoded (gRPC's HTTP/2 protocol).
std::string PercentDecoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned byte = 0;
    if (text[i] == '%' && i + 2 < text.size() &&
        std::from_chars(text.data() + i + 1, text.data() + i + 3, byte, 16).ptr ==
            text.data() + i + 3) {
      out.push_back(static_cast<char>(byte));
      i += 2;
      continue;
    }
    out.push_back(text[i]);
  }
  return out;
}

// "code: message", as api::StatusError says it.
std::string Said(api::Code code, const std::string& message) {
  return api::StatusError(code, message).what();
}

// The code of an answer without grpc-status, by its HTTP status (gRPC's
// table for HTTP/2 responses).
api::Code CodeOfHttp(std::string_view status) {
  if (status == "400") return api::Code::kInternal;
  if (status == "401") return api::Code::kUnauthenticated;
  if (status == "403") return api::Code::kPermissionDenied;
  if (status == "404") return api::Code::kUnimplemented;
  if (status == "429" || status == "502" || status == "503" || status == "504") {
    return api::Code::kUnavailable;
  }
  return api::Code::kUnknown;
}

// The code of a stream the server reset (gRPC's table for RST_STREAM).
api::Code CodeOfReset(std::uint32_t reset_code) {
  if (reset_code == NGHTTP2_REFUSED_STREAM) return api::Code::kUnavailable;
  if (reset_code == NGHTTP2_CANCEL) return api::Code::kCanceled;
  if (reset_code == NGHTTP2_ENHANCE_YOUR_CALM) return api::Code::kResourceExhausted;
  return api::Code::kInternal;
}

// What GrpcClient's thrown error would say of the call (empty: it succeeded).
std::string ErrorOf(const Stream& s, std::uint32_t reset_code) {
  if (s.grpc_status == 0) return "";
  if (s.grpc_status > 0) {
    const api::Code code = api::CodeNumbered(s.grpc_status).value_or(api::Code::kUnknown);
    return Said(code, PercentDecoded(s.grpc_message));
  }
  if (reset_code != NGHTTP2_NO_ERROR) {
    return Said(CodeOfReset(reset_code),
                std::string("the stream was reset (") + nghttp2_http2_strerror(reset_code) + ")");
  }
  return Said(CodeOfHttp(s.http_status),
              "the answer had no grpc-status (HTTP status " + s.http_status + ")");
}

// One connection: its socket, its HTTP/2 session, and the calls open on it
// (one per slot it carries at most: a slot has one call at a time).
struct Connection {
  std::deque<GrpcUpserts::Answer>* answers = nullptr;  // where its calls end
  int fd = -1;
  nghttp2_session* session = nullptr;
  std::vector<Stream*> open;
  std::string broken;  // why it can carry no more calls; empty while it can
};

// A header for nghttp2_submit_request, which copies names and values.
nghttp2_nv Header(std::string_view name, std::string_view value) {
  return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
          value.size(), NGHTTP2_NV_FLAG_NONE};
}

int Connected(const std::string& target) {
  const auto colon = target.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("no port in " + target);
  const std::string host = target.substr(0, colon);
  const std::string port = target.substr(colon + 1);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 || found == nullptr) {
    throw std::runtime_error("cannot resolve " + target);
  }
  int fd = -1;
  int why = 0;
  for (addrinfo* a = found; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd >= 0 && ::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      why = errno;
      ::close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(found);
  if (fd < 0) throw std::runtime_error("cannot connect to " + target + ": " + std::strerror(why));
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

ssize_t OnSend(nghttp2_session*, const std::uint8_t* data, std::size_t length, int, void* user) {
  const auto& c = *static_cast<Connection*>(user);
  const ssize_t sent = ::send(c.fd, data, length, MSG_NOSIGNAL);
  if (sent >= 0) return sent;
  if (errno == EAGAIN || errno == EWOULDBLOCK) return NGHTTP2_ERR_WOULDBLOCK;
  return NGHTTP2_ERR_CALLBACK_FAILURE;
}

int OnHeader(nghttp2_session* session, const nghttp2_frame* frame, const std::uint8_t* name,
             std::size_t name_length, const std::uint8_t* value, std::size_t value_length,
             std::uint8_t, void*) {
  auto* s =
      static_cast<Stream*>(nghttp2_session_get_stream_user_data(session, frame->hd.stream_id));
  if (s == nullptr) return 0;
  const std::string_view n(reinterpret_cast<const char*>(name), name_length);
  const std::string_view v(reinterpret_cast<const char*>(value), value_length);
  if (n == "grpc-status") {
    int status = 0;
    const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), status);
    // An unreadable status is none: the call ends as unknown, never as OK.
    if (error == std::errc{} && end == v.data() + v.size() && !v.empty()) s->grpc_status = status;
  } else if (n == "grpc-message") {
    s->grpc_message = v;
  } else if (n == ":status") {
    s->http_status = v;
  }
  return 0;
}

int OnStreamClose(nghttp2_session* session, std::int32_t stream_id, std::uint32_t error_code,
                  void* user) {
  const std::unique_ptr<Stream> s(
      static_cast<Stream*>(nghttp2_session_get_stream_user_data(session, stream_id)));
  if (!s) return 0;
  auto& c = *static_cast<Connection*>(user);
  std::erase(c.open, s.get());
  c.answers->push_back({s->slot, ErrorOf(*s, error_code)});
  return 0;
}

ssize_t ReadRequest(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                    std::uint32_t* flags, nghttp2_data_source* source, void*) {
  auto& s = *static_cast<Stream*>(source->ptr);
  const std::size_t n = std::min(length, s.frame.size() - s.taken);
  std::memcpy(buf, s.frame.data() + s.taken, n);
  s.taken += n;
  if (s.taken == s.frame.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
  return static_cast<ssize_t>(n);
}

const nghttp2_session_callbacks* Callbacks() {
  static nghttp2_session_callbacks* const callbacks = [] {
    nghttp2_session_callbacks* cb = nullptr;
    if (nghttp2_session_callbacks_new(&cb) != 0) throw std::bad_alloc();
    nghttp2_session_callbacks_set_send_callback(cb, OnSend);
    nghttp2_session_callbacks_set_on_header_callback(cb, OnHeader);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, OnStreamClose);
    return cb;
  }();
  return callbacks;
}

// Ends `c` for good, and every call open on it with `code` and `why`.
void Break(Connection& c, const std::string& why, api::Code code = api::Code::kUnavailable) {
  c.broken = why;
  for (Stream* s : c.open) {
    c.answers->push_back({s->slot, Said(code, why)});
    delete s;  // nghttp2_session_del calls no callback
  }
  c.open.clear();
  nghttp2_session_del(c.session);
  c.session = nullptr;
  if (c.fd >= 0) ::close(c.fd);
  c.fd = -1;
}

// Breaks `c` once its session will neither read nor write again (after a
// GOAWAY, or an error nghttp2 answered with one).
void BreakWhenDone(Connection& c) {
  if (c.broken.empty() && nghttp2_session_want_read(c.session) == 0 &&
      nghttp2_session_want_write(c.session) == 0) {
    Break(c, "the HTTP/2 session ended");
  }
}

// Writes what the session has to send, as far as the socket takes it.
void Send(Connection& c) {
  if (!c.broken.empty()) return;
  if (const int rv = nghttp2_session_send(c.session); rv != 0) {
    return Break(c, std::string("cannot write: ") + nghttp2_strerror(rv));
  }
  BreakWhenDone(c);
}

// Reads what the socket has, then writes what that asks for (settings and
// ping acknowledgements, window updates).
void Receive(Connection& c) {
  std::array<std::uint8_t, 65536> buf;
  while (c.broken.empty()) {
    const ssize_t got = ::recv(c.fd, buf.data(), buf.size(), 0);
    if (got == 0) return Break(c, "the server closed the connection");
    if (got < 0) {
      const int why = errno;
      if (why == EAGAIN || why == EWOULDBLOCK) break;
      return Break(c, std::string("cannot read: ") + std::strerror(why));
    }
    const ssize_t used =
        nghttp2_session_mem_recv(c.session, buf.data(), static_cast<std::size_t>(got));
    if (used < 0) {
      return Break(c, std::string("bad HTTP/2: ") + nghttp2_strerror(static_cast<int>(used)));
    }
  }
  Send(c);
}

// The request's frame: a flag byte (not compressed), the length big-endian,
// the message.
std::string Framed(const std::string& message) {
  const auto size = static_cast<std::uint32_t>(message.size());
  std::string frame;
  frame.reserve(5 + message.size());
  frame.push_back('\0');
  for (int shift = 24; shift >= 0; shift -= 8) frame.push_back(static_cast<char>(size >> shift));
  frame.append(message);
  return frame;
}

}  // namespace

struct GrpcUpserts::Impl {
  ~Impl() {
    for (auto& c : connections) {
      if (c.broken.empty()) Break(c, "closed");
    }
  }

  // The connection slot `slot`'s calls go on.
  Connection& Of(int slot) {
    if (slot < 0 || static_cast<std::size_t>(slot) >= busy.size()) {
      throw std::out_of_range("GrpcUpserts: no slot " + std::to_string(slot));
    }
    return connections[static_cast<std::size_t>(slot) % connections.size()];
  }

  std::string authority;
  std::string token;                   // "Bearer ..." when set
  std::deque<Connection> connections;  // nghttp2 holds their addresses
  std::vector<char> busy;              // per slot: a call started, not yet ended
  std::deque<Answer> answers;          // ended, not yet handed out
  int in_flight = 0;                   // started, not yet handed out
};

GrpcUpserts::GrpcUpserts(const std::string& target, int slots, GrpcClientOptions options,
                         int connections)
    : impl_(std::make_unique<Impl>()) {
  if (options.tls) throw std::invalid_argument("GrpcUpserts speaks plaintext only");
  if (slots < 1) throw std::invalid_argument("GrpcUpserts needs a slot");
  if (connections < 1 || connections > slots) connections = slots;
  impl_->authority = target;
  if (!options.token.empty()) impl_->token = "Bearer " + options.token;
  impl_->busy.assign(static_cast<std::size_t>(slots), 0);
  for (int n = 0; n < connections; ++n) {
    Connection& c = impl_->connections.emplace_back();  // ~Impl closes what is made
    c.answers = &impl_->answers;
    c.fd = Connected(target);
    if (nghttp2_session_client_new(&c.session, Callbacks(), &c) != 0) throw std::bad_alloc();
    const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
    nghttp2_submit_settings(c.session, NGHTTP2_FLAG_NONE, settings, 1);
    Send(c);
  }
}

GrpcUpserts::~GrpcUpserts() {
  try {
    while (impl_->in_flight > 0) Next();
  } catch (const std::exception&) {
    // Next() failed for the caller already; ~Impl closes the connections.
  }
}

void GrpcUpserts::Start(int slot, const Record& record) {
  Connection& c = impl_->Of(slot);
  char& busy = impl_->busy[static_cast<std::size_t>(slot)];
  if (busy != 0) throw std::logic_error("GrpcUpserts::Start on a busy slot");
  v1::UpsertRequest request;
  api::FillRecord(record, *request.mutable_record());
  auto s = std::make_unique<Stream>();
  s->slot = slot;
  s->started = std::chrono::steady_clock::now();
  s->frame = Framed(request.SerializeAsString());
  busy = 1;
  ++impl_->in_flight;  // from here on every path answers the call
  if (!c.broken.empty()) {
    impl_->answers.push_back({slot, Said(api::Code::kUnavailable, c.broken)});
    return;
  }
  std::vector<nghttp2_nv> headers = {Header(":method", "POST"),
                                     Header(":scheme", "http"),
                                     Header(":path", kPath),
                                     Header(":authority", impl_->authority),
                                     Header("content-type", "application/grpc"),
                                     Header("te", "trailers")};
  if (!impl_->token.empty()) headers.push_back(Header("authorization", impl_->token));
  nghttp2_data_provider body{};
  body.source.ptr = s.get();
  body.read_callback = ReadRequest;
  const std::int32_t id =
      nghttp2_submit_request(c.session, nullptr, headers.data(), headers.size(), &body, s.get());
  if (id < 0) {
    impl_->answers.push_back({slot, Said(api::Code::kUnavailable, nghttp2_strerror(id))});
    return;
  }
  c.open.push_back(s.release());  // OnStreamClose or Break takes it back
  Send(c);
}

GrpcUpserts::Answer GrpcUpserts::Next() {
  if (impl_->in_flight == 0) throw std::logic_error("GrpcUpserts::Next with no call in flight");
  std::vector<pollfd> polled;
  std::vector<Connection*> of;
  while (impl_->answers.empty()) {
    polled.clear();
    of.clear();
    const auto now = std::chrono::steady_clock::now();
    for (auto& c : impl_->connections) {
      const bool stalled = std::any_of(c.open.begin(), c.open.end(), [&](const Stream* s) {
        return now - s->started > kCallBound;
      });
      if (c.broken.empty() && stalled) {
        Break(c, "no answer within " + std::to_string(kCallBound.count()) + " s",
              api::Code::kDeadlineExceeded);
      }
      if (!c.broken.empty()) continue;
      short events = POLLIN;
      if (nghttp2_session_want_write(c.session) != 0) events |= POLLOUT;
      polled.push_back({c.fd, events, 0});
      of.push_back(&c);
    }
    if (!impl_->answers.empty()) break;
    // Every call on a broken connection was answered when it broke.
    if (polled.empty()) throw std::logic_error("GrpcUpserts: calls in flight on no connection");
    constexpr int kPollMs = 1000;  // to look at the calls' bound again
    if (::poll(polled.data(), polled.size(), kPollMs) < 0 && errno != EINTR) {
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    for (std::size_t i = 0; i < polled.size(); ++i) {
      if ((polled[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0) Receive(*of[i]);
      if ((polled[i].revents & POLLOUT) != 0) Send(*of[i]);
    }
  }
  Answer answer = std::move(impl_->answers.front());
  impl_->answers.pop_front();
  --impl_->in_flight;
  impl_->busy[static_cast<std::size_t>(answer.slot)] = 0;
  return answer;
}

}  // namespace idres::client

#include "api/connect/session.h"

#include <spdlog/spdlog.h>
#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <array>
#include <memory>
#include <optional>

namespace idres::api {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::awaitable;
using asio::use_awaitable;

constexpr std::size_t kHeaderLimit = 64 * 1024;
// After refusing a request whose body is still arriving, read and discard up
// to this much so the client sees the answer instead of a reset.
constexpr std::size_t kDrainLimit = 64 * 1024 * 1024;

HttpRequest ToHttpRequest(const http::request<http::string_body>& request) {
  HttpRequest out;
  out.method = std::string(request.method_string());
  out.target = std::string(request.target());
  out.content_type = std::string(request[http::field::content_type]);
  out.authorization = std::string(request[http::field::authorization]);
  out.content_encoding = std::string(request[http::field::content_encoding]);
  const auto header = [&](std::string_view name) -> std::optional<std::string> {
    const auto it = request.find(boost::beast::string_view(name.data(), name.size()));
    if (it == request.end()) return std::nullopt;
    return std::string(it->value());
  };
  out.connect_timeout_ms = header("Connect-Timeout-Ms");
  out.connect_protocol_version = header("Connect-Protocol-Version");
  out.received_at = std::chrono::steady_clock::now();
  out.body = request.body();
  return out;
}

http::response<http::string_body> ToBeast(const HttpResponse& response, unsigned version,
                                          bool keep_alive) {
  http::response<http::string_body> out{static_cast<http::status>(response.status), version};
  out.set(http::field::server, "idres");
  out.set(http::field::content_type, response.content_type);
  for (const auto& [name, value] : response.headers) out.set(name, value);
  out.body() = response.body;
  out.keep_alive(keep_alive);
  out.prepare_payload();
  return out;
}

// Runs the handler on the database pool and resumes on the session's strand.
awaitable<HttpResponse> HandleOnPool(SessionContext& context, const HttpRequest& request) {
  co_return co_await asio::co_spawn(
      context.work, [&]() -> awaitable<HttpResponse> { co_return context.handler.Handle(request); },
      use_awaitable);
}

// Hands `upsert`'s record to the backend and resumes, on the session's
// strand, with the outcome. No thread waits for the database meanwhile.
awaitable<UpsertOutcome> Apply(const RpcHandler& rpc, ConnectUpsert& upsert) {
  co_return co_await asio::async_initiate<decltype(use_awaitable), void(UpsertOutcome)>(
      [&rpc, &upsert](auto handler) {
        auto shared = std::make_shared<decltype(handler)>(std::move(handler));
        // Tracked: the I/O threads keep running until the outcome is back.
        auto executor = asio::prefer(asio::get_associated_executor(*shared),
                                     asio::execution::outstanding_work.tracked);
        // noexcept: a post that cannot allocate would leave the session
        // suspended for ever; ending the process is the honest failure.
        auto answer = [shared, executor](UpsertOutcome outcome) noexcept {
          asio::post(executor, [shared, outcome = std::move(outcome)]() mutable {
            (*shared)(std::move(outcome));
          });
        };
        rpc.Submit(upsert, answer);
      },
      use_awaitable);
}

// The response to `request`: an Upsert, whatever its size, decoded here and
// applied by the backend; anything else by the handler on the database pool.
awaitable<HttpResponse> Respond(SessionContext& context, const HttpRequest& request) {
  auto begun = context.handler.Begin(request);
  if (!begun) co_return co_await HandleOnPool(context, request);
  if (auto* refused = std::get_if<HttpResponse>(&*begun)) co_return std::move(*refused);
  auto& upsert = std::get<ConnectUpsert>(*begun);
  UpsertOutcome outcome = co_await Apply(context.handler, upsert);
  co_return context.handler.Finish(upsert, std::move(outcome));
}

// The answer for a request that failed while being read, or nullopt when
// the connection should just close (timeouts, resets, the client leaving).
std::optional<HttpResponse> ReadFailureResponse(const beast::error_code& ec) {
  if (ec == http::error::body_limit) {
    return ErrorResponse({Code::kResourceExhausted, "request body over the limit"});
  }
  if (ec == http::error::header_limit) {
    return HttpResponse{431, "text/plain; charset=utf-8", "request headers too large\n"};
  }
  if (ec == http::error::partial_message) {
    return ErrorResponse({Code::kInvalidArgument, "truncated request: the body ended early"});
  }
  if (ec == http::error::end_of_stream) return std::nullopt;  // closed between requests
  if (&ec.category() == &http::make_error_code(http::error::bad_target).category()) {
    return HttpResponse{400, "text/plain; charset=utf-8", "malformed HTTP request\n"};
  }
  return std::nullopt;
}

template <typename Stream>
class Session {
 public:
  Session(Stream& stream, SessionContext& context, Connection& connection)
      : stream_(stream), context_(context), connection_(connection) {}

  awaitable<void> Run() {
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(kHeaderLimit);
      parser.body_limit(context_.limits.max_body_bytes);
      connection_.idle = true;
      if (context_.stopping) co_return;
      beast::error_code ec;
      Lowest().expires_after(context_.read_timeout);
      co_await http::async_read_header(stream_, buffer_, parser,
                                       asio::redirect_error(use_awaitable, ec));
      connection_.idle = false;
      if (!ec && Expects100(parser.get())) {
        http::response<http::empty_body> go_on{http::status::continue_, parser.get().version()};
        co_await Write(go_on, ec);
      }
      if (!ec) {
        Lowest().expires_after(context_.read_timeout);
        co_await http::async_read(stream_, buffer_, parser,
                                  asio::redirect_error(use_awaitable, ec));
      }
      if (ec) {
        if (auto response = ReadFailureResponse(ec)) co_await Refuse(*response);
        co_return;
      }
      const HttpRequest request = ToHttpRequest(parser.get());
      const HttpResponse response = co_await Respond(context_, request);
      const bool keep_alive = parser.get().keep_alive() && !context_.stopping;
      auto out = ToBeast(response, parser.get().version(), keep_alive);
      co_await Write(out, ec);
      if (ec || !keep_alive) co_return;
    }
  }

 private:
  beast::tcp_stream& Lowest() { return beast::get_lowest_layer(stream_); }

  static bool Expects100(const http::request<http::string_body>& request) {
    return beast::iequals(request[http::field::expect], "100-continue");
  }

  // Writes `message` under the deadline.
  template <typename Message>
  awaitable<void> Write(Message& message, beast::error_code& ec) {
    Lowest().expires_after(context_.read_timeout);
    co_await http::async_write(stream_, message, asio::redirect_error(use_awaitable, ec));
  }

  // Answers a request that cannot be read, then closes: stop sending, and
  // read what the client still sends for a bounded time so that it reads the
  // answer instead of a connection reset.
  awaitable<void> Refuse(const HttpResponse& response) {
    beast::error_code ec;
    auto out = ToBeast(response, 11, false);
    co_await Write(out, ec);
    if (ec) co_return;
    Lowest().socket().shutdown(asio::ip::tcp::socket::shutdown_send, ec);
    std::size_t drained = 0;
    std::array<char, 64 * 1024> scratch;
    Lowest().expires_after(context_.read_timeout);
    while (!ec && drained < kDrainLimit) {
      drained += co_await Lowest().async_read_some(asio::buffer(scratch),
                                                   asio::redirect_error(use_awaitable, ec));
    }
  }

  Stream& stream_;
  SessionContext& context_;
  Connection& connection_;
  beast::flat_buffer buffer_;
};

// Registers the connection for the duration of the session, so that a stop
// can close it.
template <typename Stream>
awaitable<void> Serve(Stream& stream, SessionContext& context,
                      const std::shared_ptr<Connection>& connection) {
  context.registry.Add(connection);
  try {
    co_await Session<Stream>(stream, context, *connection).Run();
  } catch (const std::exception& e) {
    spdlog::warn("session ended by an exception: {}", e.what());
  }
  context.registry.Remove(connection);
}

std::shared_ptr<Connection> MakeConnection(beast::tcp_stream& lowest) {
  auto connection = std::make_shared<Connection>();
  connection->strand = lowest.get_executor();
  connection->close = [&lowest] {
    beast::error_code ignored;
    lowest.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    lowest.cancel();
  };
  return connection;
}

}  // namespace

awaitable<void> ServePlain(asio::ip::tcp::socket socket, SessionContext& context) {
  beast::tcp_stream stream(std::move(socket));
  auto connection = MakeConnection(stream);
  co_await Serve(stream, context, connection);
  beast::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  connection->close = [] {};  // the stream dies with this frame
}

awaitable<void> ServeTls(asio::ip::tcp::socket socket, asio::ssl::context& tls,
                         SessionContext& context) {
  beast::ssl_stream<beast::tcp_stream> stream(beast::tcp_stream(std::move(socket)), tls);
  auto connection = MakeConnection(beast::get_lowest_layer(stream));
  beast::error_code ec;
  beast::get_lowest_layer(stream).expires_after(context.read_timeout);
  co_await stream.async_handshake(asio::ssl::stream_base::server,
                                  asio::redirect_error(use_awaitable, ec));
  if (ec) {
    spdlog::debug("TLS handshake failed: {}", ec.message());
    connection->close = [] {};
    co_return;
  }
  co_await Serve(stream, context, connection);
  beast::get_lowest_layer(stream).expires_after(context.read_timeout);
  co_await stream.async_shutdown(asio::redirect_error(use_awaitable, ec));
  connection->close = [] {};
}

}  // namespace idres::api

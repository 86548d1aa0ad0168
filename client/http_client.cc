#include "client/http_client.h"

#include <sys/socket.h>
#include <sys/time.h>

// Boost 1.74's asio headers use std::exchange without <utility>.
#include <utility>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <optional>

namespace idres::client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

// One stream type for both: without TLS, its next layer is used alone.
using Stream = beast::ssl_stream<beast::tcp_stream>;

struct HttpClient::Impl {
  std::string host;
  std::string port;
  HttpClientOptions options;
  asio::io_context io;
  asio::ssl::context tls{asio::ssl::context::tls_client};
  std::optional<Stream> stream;  // set while a connection is open
  beast::flat_buffer buffer;
  bool served = false;  // the open connection has answered a request

  void Connect() {
    Close();
    stream.emplace(io, tls);
    tcp::socket& socket = beast::get_lowest_layer(*stream).socket();
    asio::connect(socket, tcp::resolver(io).resolve(host, port));
    socket.set_option(tcp::no_delay(true));
    if (options.timeout.count() > 0) {
      // Beast's own timeouts bound asynchronous operations only.
      const auto ms = options.timeout.count();
      const timeval bound{static_cast<time_t>(ms / 1000),
                          static_cast<suseconds_t>(ms % 1000 * 1000)};
      for (const int option : {SO_RCVTIMEO, SO_SNDTIMEO}) {
        ::setsockopt(socket.native_handle(), SOL_SOCKET, option, &bound, sizeof bound);
      }
    }
    if (options.tls) {
      tls.set_verify_mode(asio::ssl::verify_none);
      stream->handshake(asio::ssl::stream_base::client);
    }
  }

  void Close() {
    if (stream) {
      beast::error_code ignored;
      beast::get_lowest_layer(*stream).socket().shutdown(tcp::socket::shutdown_both, ignored);
    }
    stream.reset();
    buffer.clear();
    served = false;
  }

  template <typename S>
  HttpResponse Exchange(S& s, http::request<http::string_body>& request) {
    http::write(s, request);
    http::response_parser<http::string_body> parser;
    parser.body_limit(options.max_body_bytes);
    http::read(s, buffer, parser);
    auto response = parser.release();
    served = response.keep_alive();
    if (!served) Close();
    return {static_cast<int>(response.result_int()),
            std::string(response[http::field::content_type]), std::move(response.body())};
  }

  HttpResponse Exchange(http::request<http::string_body>& request) {
    return options.tls ? Exchange(*stream, request) : Exchange(stream->next_layer(), request);
  }

  HttpResponse Send(http::request<http::string_body>& request, const HttpHeaders& headers) {
    for (const auto& [name, value] : headers) request.set(name, value);
    request.set(http::field::host, host + ":" + port);
    request.prepare_payload();
    try {
      if (!stream) Connect();
      const bool retry = served;
      try {
        return Exchange(request);
      } catch (const boost::system::system_error&) {
        if (!retry) throw;
      }
      Connect();
      return Exchange(request);
    } catch (const boost::system::system_error& e) {
      Close();
      throw HttpClientError(host + ":" + port + ": " + e.what());
    }
  }
};

HttpClient::HttpClient(const std::string& host, const std::string& port, HttpClientOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->host = host;
  impl_->port = port;
  impl_->options = std::move(options);
  try {
    impl_->Connect();
  } catch (const boost::system::system_error& e) {
    throw HttpClientError("cannot reach " + host + ":" + port + ": " + e.what());
  }
}

HttpClient::HttpClient(int port, bool https)
    : HttpClient("127.0.0.1", std::to_string(port), [https] {
        HttpClientOptions options;
        options.tls = https;
        return options;
      }()) {}

HttpClient::~HttpClient() { impl_->Close(); }

HttpResponse HttpClient::Post(const std::string& target, const std::string& content_type,
                              std::string body, const HttpHeaders& headers) {
  http::request<http::string_body> request{http::verb::post, target, 11};
  request.set(http::field::content_type, content_type);
  request.body() = std::move(body);
  return impl_->Send(request, headers);
}

HttpResponse HttpClient::Get(const std::string& target, const HttpHeaders& headers) {
  http::request<http::string_body> request{http::verb::get, target, 11};
  return impl_->Send(request, headers);
}

HttpResponse HttpClient::Call(const std::string& method, std::string body,
                              const HttpHeaders& headers, const std::string& content_type) {
  HttpHeaders all = headers;
  all.emplace("Connect-Protocol-Version", "1");
  return Post(impl_->options.prefix + "/idres.v1.IdentityService/" + method, content_type,
              std::move(body), all);
}

bool PortOpen(const std::string& host, int port) {
  try {
    asio::io_context io;
    tcp::socket socket(io);
    asio::connect(socket, tcp::resolver(io).resolve(host, std::to_string(port)));
    return true;
  } catch (const boost::system::system_error&) {
    return false;
  }
}

}  // namespace idres::client

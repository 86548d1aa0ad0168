#include "api/http_client.h"

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

namespace idres::api {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

struct HttpClient::Impl {
  std::string host;
  std::string port;
  HttpClientOptions options;
  asio::io_context io;
  asio::ssl::context tls{asio::ssl::context::tls_client};
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer;
  bool open = false;
  bool served = false;  // the open connection has answered a request

  tcp::socket& Socket() {
    return secure ? beast::get_lowest_layer(*secure).socket() : plain->socket();
  }

  void Connect() {
    Close();
    buffer.clear();
    const auto endpoints = tcp::resolver(io).resolve(host, port);
    if (options.tls) {
      tls.set_verify_mode(asio::ssl::verify_none);
      secure.emplace(io, tls);
      beast::get_lowest_layer(*secure).connect(endpoints);
    } else {
      plain.emplace(io);
      plain->connect(endpoints);
    }
    Socket().set_option(tcp::no_delay(true));
    if (options.timeout.count() > 0) {
      // Beast's own timeouts bound asynchronous operations only.
      const auto ms = options.timeout.count();
      const timeval bound{static_cast<time_t>(ms / 1000),
                          static_cast<suseconds_t>(ms % 1000 * 1000)};
      for (const int option : {SO_RCVTIMEO, SO_SNDTIMEO}) {
        ::setsockopt(Socket().native_handle(), SOL_SOCKET, option, &bound, sizeof bound);
      }
    }
    if (secure) secure->handshake(asio::ssl::stream_base::client);
    open = true;
    served = false;
  }

  void Close() {
    if (open) {
      beast::error_code ignored;
      Socket().shutdown(tcp::socket::shutdown_both, ignored);
    }
    open = false;
    secure.reset();
    plain.reset();
  }

  template <typename Stream>
  HttpResponse Exchange(Stream& stream, http::request<http::string_body>& request) {
    http::write(stream, request);
    http::response_parser<http::string_body> parser;
    parser.body_limit(options.max_body_bytes);
    http::read(stream, buffer, parser);
    auto response = parser.release();
    if (!response.keep_alive()) Close();
    served = open;
    return {static_cast<int>(response.result_int()),
            std::string(response[http::field::content_type]), std::move(response.body())};
  }

  HttpResponse Send(http::request<http::string_body>& request) {
    request.set(http::field::host, host);
    request.prepare_payload();
    try {
      if (!open) Connect();
      const bool retry = served;
      try {
        return secure ? Exchange(*secure, request) : Exchange(*plain, request);
      } catch (const boost::system::system_error&) {
        if (!retry) throw;
      }
      Connect();
      return secure ? Exchange(*secure, request) : Exchange(*plain, request);
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

namespace {

HttpClientOptions Tls(bool https) {
  HttpClientOptions options;
  options.tls = https;
  return options;
}

}  // namespace

HttpClient::HttpClient(int port, bool https)
    : HttpClient("127.0.0.1", std::to_string(port), Tls(https)) {}

HttpClient::~HttpClient() { impl_->Close(); }

HttpResponse HttpClient::Post(const std::string& target, const std::string& content_type,
                              std::string body, const HttpHeaders& headers) {
  http::request<http::string_body> request{http::verb::post, target, 11};
  request.set(http::field::content_type, content_type);
  for (const auto& [name, value] : headers) request.set(name, value);
  request.body() = std::move(body);
  return impl_->Send(request);
}

HttpResponse HttpClient::Get(const std::string& target, const HttpHeaders& headers) {
  http::request<http::string_body> request{http::verb::get, target, 11};
  for (const auto& [name, value] : headers) request.set(name, value);
  return impl_->Send(request);
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

}  // namespace idres::api

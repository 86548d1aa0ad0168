#include "api/connect/console_handler.h"

#include <catch2/catch.hpp>
#include <string>

#include "api/connect/console_files.h"
#include "api/connect/rpc_handler.h"
#include "tests/api/fake_backend.h"

namespace idres::api {
namespace {

HttpRequest Get(std::string target) {
  HttpRequest r;
  r.method = "GET";
  r.target = std::move(target);
  return r;
}

std::string Header(const HttpResponse& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "";
}

TEST_CASE("GET /console/ serves the page, /console/<file> each file, under a strict CSP") {
  const auto index = ConsoleResponse(Get("/console/"));
  REQUIRE(index);
  CHECK(index->status == 200);
  CHECK(index->content_type == "text/html; charset=utf-8");
  CHECK(index->body == FindConsoleFile("index.html")->bytes);
  CHECK(Header(*index, "Content-Security-Policy") == "default-src 'self'; frame-ancestors 'none'");
  CHECK(Header(*index, "X-Content-Type-Options") == "nosniff");
  const auto script = ConsoleResponse(Get("/console/console.js?v=1"));
  REQUIRE(script);
  CHECK(script->status == 200);
  CHECK(script->content_type == "text/javascript; charset=utf-8");
  CHECK(script->body == FindConsoleFile("console.js")->bytes);
}

TEST_CASE("/console redirects to /console/, unknown files 404, other verbs 405") {
  const auto bare = ConsoleResponse(Get("/console"));
  REQUIRE(bare);
  CHECK(bare->status == 308);
  CHECK(Header(*bare, "Location") == "/console/");
  CHECK(ConsoleResponse(Get("/console/nope.js"))->status == 404);
  CHECK(ConsoleResponse(Get("/console/sub/index.html"))->status == 404);
  HttpRequest post = Get("/console/");
  post.method = "POST";
  CHECK(ConsoleResponse(post)->status == 405);
  post.method = "HEAD";
  CHECK(ConsoleResponse(post)->status == 405);
}

TEST_CASE("Paths outside /console/ are not the console's") {
  CHECK_FALSE(ConsoleResponse(Get("/consoles")));
  CHECK_FALSE(ConsoleResponse(Get("/healthz")));
  CHECK_FALSE(ConsoleResponse(Get("/idres.v1.IdentityService/GetPerson")));
  CHECK_FALSE(ConsoleResponse(Get("/x/console/")));
}

TEST_CASE("With an auth token the console's files need none but the calls do") {
  idres::testing::FakeBackend backend;
  const IdentityService service(backend, nullptr, {{}, testing::AdminOnly("s3cret")});
  const RpcHandler handler(service, nullptr);
  CHECK(handler.Handle(Get("/console/")).status == 200);
  CHECK(handler.Handle(Get("/console/console.css")).status == 200);
  HttpRequest call;
  call.method = "POST";
  call.target = "/idres.v1.IdentityService/Stats";
  call.content_type = "application/json";
  call.body = "{}";
  CHECK(handler.Handle(call).status == 401);
  call.authorization = "Bearer s3cret";
  CHECK(handler.Handle(call).status == 200);
}

}  // namespace
}  // namespace idres::api

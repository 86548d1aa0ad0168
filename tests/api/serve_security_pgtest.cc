// TLS and bearer-token authentication of `idres serve`.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "tests/api/curl.h"
#include "tests/api/http_client.h"
#include "tests/api/server_process.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

namespace fs = std::filesystem;

// A self-signed certificate for 127.0.0.1 made with `openssl req`.
struct SelfSignedCert {
  fs::path dir = fs::temp_directory_path() / ("idres-api-tls-" + std::to_string(getpid()));
  std::string cert = (dir / "cert.pem").string();
  std::string key = (dir / "key.pem").string();
  SelfSignedCert() {
    fs::create_directories(dir);
    const std::string command =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 "
        "-addext subjectAltName=IP:127.0.0.1 -keyout " +
        key + " -out " + cert + " 2>/dev/null";
    REQUIRE(std::system(command.c_str()) == 0);
  }
  ~SelfSignedCert() { fs::remove_all(dir); }
};

TEST_CASE("With --tls-cert and --tls-key the service speaks HTTPS only", "[pg]") {
  TestDatabase db;
  SelfSignedCert tls;
  ServerProcess server(
      ServeOptions{db.url(), {"--tls-cert", tls.cert, "--tls-key", tls.key}, {}, true, 4, false});

  HttpClient client(server.port(), /*https=*/true);
  CHECK(client.Get("/healthz").status == 200);
  const auto upsert =
      client.Call("Upsert", R"({"record":{"identifiers":[{"type":"email","value":"tls@x.org"}]}})");
  CHECK(upsert.status == 200);

  // curl verifying the certificate against itself.
  const std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/healthz";
  const std::string command =
      "curl -s -o /dev/null -w '%{http_code}' --cacert " + tls.cert + " " + url;
  FILE* pipe = popen(command.c_str(), "r");
  char status[8] = {};
  REQUIRE(fgets(status, sizeof status, pipe) != nullptr);
  pclose(pipe);
  CHECK(std::string(status) == "200");

  RawConnection plain(server.port());
  plain.Send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK(plain.ReadUntilClosed().find("HTTP/1.1 200") == std::string::npos);
}

TEST_CASE("With --auth-token every call but /healthz needs the bearer token", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url(), {"--auth-token", "s3cret-token"});
  HttpClient client(server.port());
  const auto none = client.Call("Stats", "{}");
  CHECK(none.status == 401);
  CHECK_THAT(none.body, Catch::Contains(R"("code":"unauthenticated")"));
  CHECK(client.Call("Stats", "{}", {{"Authorization", "Bearer s3cret-tokeN"}}).status == 401);
  CHECK(client.Call("Stats", "{}", {{"Authorization", "Bearer s3cret-token"}}).status == 200);
  CHECK(client.Get("/metrics").status == 401);
  CHECK(client.Get("/metrics", {{"Authorization", "Bearer s3cret-token"}}).status == 200);
  CHECK(client.Get("/healthz").status == 200);
  CHECK(
      CurlCall(server.port(), "Stats", "{}", {"-H", "Authorization: Bearer s3cret-token"}).status ==
      200);
}

}  // namespace
}  // namespace idres::testing

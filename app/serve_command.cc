// `idres serve`: migrates the store (MigrateStore), opens the engine's pool and serves the
// IdentityService (api/service/service.h) over Connect (api/connect/server.h) and, with
// --grpc-listen, over gRPC beside it (api/grpc/grpc_server.h), until SIGTERM or SIGINT.
//
// Every option can come from a flag, an environment variable IDRES_<NAME>
// (upper case, dashes as underscores) or a TOML file given with --config,
// whose keys are the flag names without the dashes (`pool-size = 32`). A flag
// beats the environment, which beats the file, which beats the default.
#include <spdlog/spdlog.h>
#include <toml++/toml.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <variant>

#include "api/connect/server.h"
#include "api/grpc/grpc_server.h"
#include "api/service/backend.h"
#include "api/service/engine_backend.h"
#include "api/service/metrics.h"
#include "api/service/service.h"
#include "api/service/tokens_file.h"
#include "app/commands.h"
#include "app/engine_flags.h"
#include "base/allocator.h"
#include "engine/engine.h"

namespace idres::app {
namespace {

// Network threads: decoding and answering a call is a small part of its
// work beside the database's, so a quarter of the cores, at least one. On
// two cores one network thread served more upserts than two (BENCHMARKS.md,
// shared 6): fewer threads contend with PostgreSQL for the cores.
int DefaultIoThreads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency() / 4));
}

struct ServeFlags {
  std::string config_file;
  api::ServerOptions server;
  std::string grpc_listen;  // empty: no gRPC
  std::string auth_token;   // one admin token, beside the tokens file's
  std::string tokens_file;  // the tokens file (re-read on SIGHUP); empty: none
  EngineFlags engine;
  int pool_size = 16;
  int group_max_records = static_cast<int>(EngineOptions{}.group_max_records);
  int upsert_runners = EngineOptions{}.upsert_runners;  // 0: half the pool, at least 1
  std::string default_region = "US";
  bool no_prepared_statements = false;
  int read_timeout_ms = 30000;
  int shutdown_timeout_ms = 10000;
};

std::string EnvName(const std::string& flag) {
  std::string out = "IDRES_";
  for (const char c : flag) {
    out += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

// Registers --<name> bound to `value`, with its IDRES_<NAME> variable.
template <typename T>
CLI::Option* Add(CLI::App& cmd, const std::string& name, T& value, const std::string& help) {
  return cmd.add_option("--" + name, value, help)->envname(EnvName(name))->capture_default_str();
}

std::vector<std::string> TomlValues(const toml::node& node, const std::string& key) {
  if (const auto* array = node.as_array()) {
    std::vector<std::string> out;
    for (const auto& element : *array) {
      auto one = TomlValues(element, key);
      out.insert(out.end(), one.begin(), one.end());
    }
    return out;
  }
  if (const auto s = node.value<std::string>(); s && node.is_string()) return {*s};
  if (const auto b = node.as_boolean()) return {b->get() ? "true" : "false"};
  if (const auto i = node.as_integer()) return {std::to_string(i->get())};
  if (const auto f = node.as_floating_point()) {
    std::ostringstream text;
    text.precision(17);
    text << f->get();
    return {text.str()};
  }
  throw std::runtime_error("--config: key '" + key + "' has an unsupported value type");
}

// Fills every option neither a flag nor the environment set from the TOML
// file (unknown keys are an error: a misspelt key must not be ignored).
void ApplyConfigFile(CLI::App& cmd, const std::string& path) {
  toml::table table;
  try {
    table = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    std::ostringstream where;
    where << e.source().begin;
    throw std::runtime_error("--config " + path + ": " + std::string(e.description()) + " at " +
                             where.str());
  }
  for (const auto& [k, node] : table) {
    const std::string key(k.str());
    CLI::Option* option = key == "config" ? nullptr : cmd.get_option_no_throw("--" + key);
    if (option == nullptr)
      throw std::runtime_error("--config " + path + ": unknown key '" + key + "'");
    if (option->count() > 0) continue;
    option->add_result(TomlValues(node, key));
    option->run_callback();
  }
}

EngineOptions BuildEngineOptions(const ServeFlags& flags,
                                 const std::shared_ptr<api::Metrics>& metrics) {
  EngineOptions options = flags.engine.ToOptions(flags.pool_size);
  options.prepared_statements = !flags.no_prepared_statements;
  options.normalizer.default_region = flags.default_region;
  options.observer = metrics;
  options.upsert_runners = flags.upsert_runners;
  options.group_max_records = static_cast<std::size_t>(flags.group_max_records);
  return options;
}

api::GrpcOptions GrpcOf(const ServeFlags& flags) {
  api::GrpcOptions options;
  options.listen = flags.grpc_listen;
  options.tls_cert = flags.server.tls_cert;
  options.tls_key = flags.server.tls_key;
  options.max_message_bytes = flags.server.limits.max_body_bytes;
  options.worker_threads = flags.pool_size;
  options.shutdown_timeout = std::chrono::milliseconds(flags.shutdown_timeout_ms);
  return options;
}

// The tokens in force: the tokens file's and --auth-token's; or why they
// cannot be.
std::variant<api::TokenTable, std::string> LoadTokens(const ServeFlags& flags) {
  api::TokenTable tokens;
  if (!flags.tokens_file.empty()) {
    auto read = api::ReadTokensFile(flags.tokens_file);
    if (auto* error = std::get_if<std::string>(&read)) return std::move(*error);
    tokens = std::get<api::TokenTable>(std::move(read));
  }
  if (!flags.auth_token.empty()) {
    api::TokenEntry entry = api::AuthTokenEntry(flags.auth_token);
    for (const api::TokenEntry& other : tokens) {
      if (other.name == entry.name || other.sha256 == entry.sha256) {
        return "--auth-token: the tokens file holds that token or the name " + entry.name;
      }
    }
    tokens.push_back(std::move(entry));
  }
  return tokens;
}

// Who may call: nobody is asked without --tokens and --auth-token (null).
std::shared_ptr<api::AccessControl> OpenAccess(const ServeFlags& flags) {
  if (flags.tokens_file.empty() && flags.auth_token.empty()) return nullptr;
  auto tokens = LoadTokens(flags);
  if (auto* error = std::get_if<std::string>(&tokens)) throw std::runtime_error(*error);
  spdlog::info("{} tokens in force", std::get<api::TokenTable>(tokens).size());
  return std::make_shared<api::AccessControl>(std::get<api::TokenTable>(std::move(tokens)));
}

// SIGHUP: the tokens file again; a file that is refused leaves the tokens
// in force as they are.
void ReloadTokens(const ServeFlags& flags, api::AccessControl& access) {
  auto tokens = LoadTokens(flags);
  if (auto* error = std::get_if<std::string>(&tokens)) {
    spdlog::error("tokens file not re-read, the tokens in force stay: {}", *error);
    return;
  }
  spdlog::info("tokens file re-read: {} tokens in force", std::get<api::TokenTable>(tokens).size());
  access.Replace(std::get<api::TokenTable>(std::move(tokens)));
}

int Serve(const ServeFlags& flags) {
  if (flags.engine.database_url.empty()) {
    spdlog::error("serve: --database-url (or IDRES_DATABASE_URL) is required");
    return 2;
  }
  if (flags.pool_size < 1) {
    spdlog::error("serve: --pool-size must be at least 1");
    return 2;
  }
  if (flags.upsert_runners < 0 || flags.upsert_runners > flags.pool_size) {
    spdlog::error("serve: --upsert-runners must be 0 (half the pool) or between 1 and --pool-size");
    return 2;
  }
  if (flags.server.limits.max_batch < 1) {
    spdlog::error("serve: --max-batch must be at least 1");
    return 2;
  }
  if (flags.group_max_records < 1) {
    spdlog::error("serve: --group-max-records must be at least 1 (1: no shared transactions)");
    return 2;
  }
  auto metrics = std::make_shared<api::Metrics>();
  api::ServerOptions server = flags.server;
  // Upserts need none: the engine's runners apply them.
  server.worker_threads = flags.pool_size;
  server.pool_size = flags.pool_size;
  server.read_timeout = std::chrono::milliseconds(flags.read_timeout_ms);
  server.shutdown_timeout = std::chrono::milliseconds(flags.shutdown_timeout_ms);
  const std::shared_ptr<api::AccessControl> access = OpenAccess(flags);
  if (!flags.tokens_file.empty()) {
    server.on_hangup = [&flags, access] { ReloadTokens(flags, *access); };
  }
  // Said once, so that a build or a loader that lost jemalloc shows.
  spdlog::info("allocator: {}", AllocatorName());
  const EngineOptions engine_options = BuildEngineOptions(flags, metrics);
  MigrateStore(engine_options.database_url, engine_options.model);
  Engine engine(engine_options);
  api::EngineBackend backend(engine);
  const api::IdentityService service(backend, metrics.get(), {flags.server.limits, access});
  std::unique_ptr<api::GrpcServer> grpc;
  if (!flags.grpc_listen.empty()) grpc = std::make_unique<api::GrpcServer>(GrpcOf(flags), service);
  // One stop for both transports: a signal begins the Connect server's
  // drain, and with it gRPC's.
  server.on_stop = [&grpc] {
    if (grpc) grpc->BeginShutdown();
  };
  api::Server connect(std::move(server), service, metrics.get());
  connect.Run();
  if (grpc) {
    grpc->BeginShutdown();
    grpc->Wait();
  }
  return 0;  // the engine's pool closes as `engine` goes out of scope
}

}  // namespace

void AddServeCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "serve", "Serve the IdentityService (Connect over HTTP/1.1; with --grpc-listen, gRPC too)");
  auto flags = std::make_shared<ServeFlags>();
  auto& f = *flags;
  f.server.io_threads = DefaultIoThreads();
  cmd->add_option("--config", f.config_file, "TOML file with any of these options")
      ->envname("IDRES_CONFIG");
  Add(*cmd, "listen", f.server.listen, "host:port to listen on");
  Add(*cmd, "grpc-listen", f.grpc_listen,
      "host:port to serve gRPC on, beside Connect (same token, TLS and limits); empty: none");
  Add(*cmd, "database-url", f.engine.database_url, "PostgreSQL URL (libpq)");
  Add(*cmd, "pool-size", f.pool_size, "database connections");
  Add(*cmd, "upsert-runners", f.upsert_runners,
      "single upserts applied at once, each on a connection of the pool (0: half the pool)");
  Add(*cmd, "group-max-records", f.group_max_records,
      "most single upserts, queued while the database is busy, to share a transaction (1: none)");
  // The flag's earlier name, kept for scripts that still say it.
  cmd->add_option("--coalesce", f.group_max_records)->group("");
  Add(*cmd, "lock-timeout-ms", f.engine.lock_timeout_ms,
      "longest wait for a lock before unavailable");
  Add(*cmd, "default-region", f.default_region, "region for phones without a country code");
  Add(*cmd, "model", f.engine.model_file, "TOML model file (idres model prints the built-in one)");
  Add(*cmd, "max-body-bytes", f.server.limits.max_body_bytes, "largest request body");
  Add(*cmd, "max-identifiers", f.engine.max_identifiers, "most identifiers per record");
  Add(*cmd, "max-traits", f.engine.max_traits, "most traits per record");
  Add(*cmd, "max-person-traits", f.engine.max_person_traits,
      "most traits a person may come to hold by upserts");
  Add(*cmd, "max-batch", f.server.limits.max_batch, "most records per BatchUpsert");
  Add(*cmd, "tls-cert", f.server.tls_cert, "PEM certificate chain; with --tls-key: HTTPS only");
  Add(*cmd, "tls-key", f.server.tls_key, "PEM private key");
  Add(*cmd, "auth-token", f.auth_token,
      "one token with the role admin (Authorization: Bearer <token>), beside --tokens'");
  Add(*cmd, "tokens", f.tokens_file,
      "TOML file of named tokens (SHA-256) with roles and limits; re-read on SIGHUP");
  cmd->add_flag("--no-prepared-statements", f.no_prepared_statements,
                "no named prepared statements (PgBouncer in transaction mode)")
      ->envname("IDRES_NO_PREPARED_STATEMENTS");
  Add(*cmd, "io-threads", f.server.io_threads,
      "threads doing network I/O (default: a quarter of the cores, at least 1)");
  Add(*cmd, "read-timeout-ms", f.read_timeout_ms, "deadline of each read and write");
  Add(*cmd, "shutdown-timeout-ms", f.shutdown_timeout_ms, "bound on finishing in-flight calls");
  cmd->callback([cmd, flags] {
    try {
      if (!flags->config_file.empty()) ApplyConfigFile(*cmd, flags->config_file);
      SetExitCode(Serve(*flags));
    } catch (const std::exception& e) {
      spdlog::error("serve: {}", e.what());
      SetExitCode(1);
    }
  });
}

}  // namespace idres::app

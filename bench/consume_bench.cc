// idres_bench_consume: `idres consume` against `idres import` of the same
// records (throughput), and the latency from producing a message to its
// record's commit at a steady load (BENCHMARKS.md, "Kafka ingest"). Kafka
// is librdkafka's mock cluster in this process (no broker; the loopback);
// PostgreSQL is the cluster at --database-url (scripts/bench.sh --consume
// starts a throwaway one). The records are scenario (e)'s: each a new
// person with email, phone, name, birth date and postal code.
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <thread>

#include "batch/kafka_producer.h"
#include "bench/suite/cluster.h"
#include "bench/suite/import_runs.h"
#include "bench/suite/scratch_database.h"
#include "client/client_requests.h"
#include "process/child_process.h"

namespace idres::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string admin_url, idres, work_dir = "consume-bench";
  std::int64_t records = 100000;
  int partitions = 4, workers = 4, rate = 200, seconds = 20, repeat = 3;
  // The mock broker answers a fetch only once this wait has passed, where a
  // real one answers as soon as data is there: the default 500 ms would be
  // measured instead of idres.
  int fetch_wait_ms = 10;
};

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string Json(std::int64_t i) { return client::RecordJson(ImportRecordAt(i)).value_or("{}"); }

// The mock cluster lives as long as this handle.
struct MockCluster {
  rd_kafka_t* rk = nullptr;
  rd_kafka_mock_cluster_t* cluster = nullptr;
  explicit MockCluster(int partitions) {
    char error[256];
    rk = rd_kafka_new(RD_KAFKA_PRODUCER, rd_kafka_conf_new(), error, sizeof error);
    cluster = rd_kafka_mock_cluster_new(rk, 1);
    rd_kafka_mock_topic_create(cluster, "in", partitions, 1);
    rd_kafka_mock_topic_create(cluster, "steady", partitions, 1);
  }
  ~MockCluster() {
    rd_kafka_mock_cluster_destroy(cluster);
    rd_kafka_destroy(rk);
  }
  std::string bootstrap() const { return rd_kafka_mock_cluster_bootstraps(cluster); }
};

std::int64_t Stored(pqxx::connection& c, const std::string& group) {
  pqxx::work tx(c);
  return tx
      .exec1(
          "SELECT COALESCE(sum(next_offset), 0) FROM stream_positions"
          " WHERE consumer_group = " +
          tx.quote(group))[0]
      .as<std::int64_t>();
}

std::unique_ptr<ChildProcess> Consumer(const Options& o, const std::string& bootstrap,
                                       const std::string& topic, const std::string& group,
                                       const std::string& url) {
  return std::make_unique<ChildProcess>(
      std::vector<std::string>{o.idres, "consume", "--brokers", bootstrap, "--topic", topic,
                               "--group", group, "--workers", std::to_string(o.workers),
                               "--database-url", url, "--dead-letter",
                               o.work_dir + "/" + group + ".dead", "-X",
                               "fetch.wait.max.ms=" + std::to_string(o.fetch_wait_ms)},
      o.work_dir + "/" + group + ".log");
}

double TimeImport(const Options& o, const Cluster& cluster, const std::string& file, int round) {
  ScratchDatabase db(cluster, "idres_bench_consume_import");
  const auto t0 = Clock::now();
  const int status = RunToEnd(
      {o.idres, "import", file, "--database-url", db.url(), "--workers", std::to_string(o.workers),
       "--no-checkpoint", "--dead-letter", o.work_dir + "/import.dead", "--progress", "off"},
      o.work_dir + "/import-" + std::to_string(round) + ".log");
  if (status != 0) throw std::runtime_error("idres import exited with " + std::to_string(status));
  return Since(t0);
}

// Seconds from the consumer's start to every position stored, and from its
// first commit (after joining the group) to then.
std::pair<double, double> TimeConsume(const Options& o, const Cluster& cluster,
                                      const std::string& bootstrap, int round) {
  ScratchDatabase db(cluster, "idres_bench_consume_kafka");
  pqxx::connection c(db.url());
  const std::string group = "in-" + std::to_string(round);
  const auto t0 = Clock::now();
  auto consumer = Consumer(o, bootstrap, "in", group, db.url());
  Clock::time_point first = t0;
  std::int64_t stored = 0;
  while ((stored = Stored(c, group)) < o.records && !consumer->Poll()) {
    if (stored == 0) first = Clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  consumer->Stop();
  if (stored < o.records) throw std::runtime_error("idres consume ended early: see its log");
  return {Since(t0), Since(first)};
}

// Rounds of `idres import` of the records and `idres consume` of the same
// records from the topic, each on an empty store, taking turns at going
// first so a busy phase of a shared machine hits both alike.
void Throughput(const Options& o, const Cluster& cluster, const std::string& bootstrap) {
  const std::string file = o.work_dir + "/records.ndjson";
  {
    std::ofstream out(file);
    batch::KafkaProducer producer(batch::KafkaSettings{bootstrap, {}});
    for (std::int64_t i = 0; i < o.records; ++i) {
      const std::string json = Json(i);
      out << json << '\n';
      producer.Produce("in", static_cast<std::int32_t>(i % o.partitions), "", json, {});
    }
    producer.Flush();
  }
  const double n = static_cast<double>(o.records);
  std::vector<double> ratios;
  for (int round = 0; round < o.repeat; ++round) {
    double import_s = 0;
    std::pair<double, double> consume_s;
    if (round % 2 == 0) import_s = TimeImport(o, cluster, file, round);
    consume_s = TimeConsume(o, cluster, bootstrap, round);
    if (round % 2 == 1) import_s = TimeImport(o, cluster, file, round);
    ratios.push_back(import_s / consume_s.first);
    fmt::print(
        "round {}: import {:.1f} s ({:.0f} records/s); consume {:.1f} s from start ({:.0f} "
        "records/s, {:.2f} x import), {:.1f} s after its first commit ({:.0f} records/s)\n",
        round, import_s, n / import_s, consume_s.first, n / consume_s.first,
        import_s / consume_s.first, consume_s.second, n / consume_s.second);
  }
  std::sort(ratios.begin(), ratios.end());
  fmt::print(
      "consume/import throughput, {} records, {} partitions, {} workers: median {:.2f} "
      "(rounds: {:.2f})\n",
      o.records, o.partitions, o.workers, ratios[ratios.size() / 2], fmt::join(ratios, ", "));
}

// Produces `rate` messages/s for `seconds`, round robin over the partitions
// (message k is offset k / partitions of partition k % partitions), and
// polls the stored positions: a message's latency is from its produce call
// to the first poll that finds its position stored.
void Latency(const Options& o, const Cluster& cluster, const std::string& bootstrap) {
  ScratchDatabase db(cluster, "idres_bench_consume_latency");
  auto consumer = Consumer(o, bootstrap, "steady", "steady", db.url());
  while (consumer->Log().find("consume: assigned") == std::string::npos) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const std::int64_t total = static_cast<std::int64_t>(o.rate) * o.seconds;
  std::vector<Clock::time_point> sent(static_cast<std::size_t>(total));
  std::vector<double> latency(static_cast<std::size_t>(total), -1);
  std::atomic<std::int64_t> produced{0};
  std::thread producer_thread([&] {
    batch::KafkaProducer producer(batch::KafkaSettings{bootstrap, {{"linger.ms", "0"}}});
    const auto t0 = Clock::now();
    for (std::int64_t k = 0; k < total; ++k) {
      std::this_thread::sleep_until(t0 + std::chrono::microseconds(k * 1000000 / o.rate));
      sent[static_cast<std::size_t>(k)] = Clock::now();
      produced = k + 1;
      producer.Produce("steady", static_cast<std::int32_t>(k % o.partitions), "",
                       Json(1000000000 + k), {});
    }
    producer.Flush();
  });
  pqxx::connection c(db.url());
  std::vector<std::int64_t> done(o.partitions, 0);  // per partition: offsets measured
  for (std::int64_t measured = 0; measured < total;) {
    pqxx::work tx(c);
    const auto rows = tx.exec(
        "SELECT partition, next_offset FROM stream_positions"
        " WHERE consumer_group = 'steady'");
    tx.commit();
    const auto now = Clock::now();
    for (const auto& row : rows) {
      const int p = row[0].as<int>();
      for (std::int64_t off = done[p]; off < row[1].as<std::int64_t>(); ++off, ++measured) {
        const auto k = static_cast<std::size_t>(off * o.partitions + p);
        latency[k] = std::chrono::duration<double, std::milli>(now - sent[k]).count();
      }
      done[p] = row[1].as<std::int64_t>();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  producer_thread.join();
  consumer->Stop();
  std::sort(latency.begin(), latency.end());
  const auto at = [&](double q) { return latency[static_cast<std::size_t>(q * (total - 1))]; };
  fmt::print(
      "latency  {} msg/s for {} s over {} partitions, produce to commit: p50 {:.1f} ms, "
      "p90 {:.1f} ms, p99 {:.1f} ms, max {:.1f} ms\n",
      o.rate, o.seconds, o.partitions, at(0.5), at(0.9), at(0.99), latency.back());
}

}  // namespace
}  // namespace idres::bench

int main(int argc, char** argv) {
  idres::bench::Options o;
  CLI::App app{"idres consume against idres import, and produce-to-commit latency"};
  app.add_option("--database-url", o.admin_url, "Admin URL of the PostgreSQL cluster")->required();
  app.add_option("--idres", o.idres, "The idres executable")->required();
  app.add_option("--work-dir", o.work_dir, "Logs and the records file")->capture_default_str();
  app.add_option("--records", o.records, "Records for the throughput run")->capture_default_str();
  app.add_option("--partitions", o.partitions, "Partitions of the topics")->capture_default_str();
  app.add_option("--workers", o.workers, "Workers of both")->capture_default_str();
  app.add_option("--repeat", o.repeat, "Rounds of import and consume")->capture_default_str();
  app.add_option("--rate", o.rate, "Messages/s of the steady load")->capture_default_str();
  app.add_option("--seconds", o.seconds, "Length of the steady load")->capture_default_str();
  app.add_option("--fetch-wait-ms", o.fetch_wait_ms, "The consumers' fetch.wait.max.ms")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  std::filesystem::create_directories(o.work_dir);
  const idres::bench::Cluster cluster(o.admin_url);
  const idres::bench::MockCluster kafka(o.partitions);
  idres::bench::Throughput(o, cluster, kafka.bootstrap());
  idres::bench::Latency(o, cluster, kafka.bootstrap());
  return 0;
}

#include "batch/rpc_sink.h"

#include <optional>
#include <stdexcept>

#include "batch/service_call.h"
#include "client/client_requests.h"
#include "normalize/utf8.h"

namespace idres::batch {
namespace {

// The service refuses more records or bytes per request (api/service/limits.h);
// stay well under both.
constexpr std::size_t kMaxRecordsPerRequest = 1000;
constexpr std::size_t kMaxBodyBytes = 512 * 1024;

// `record` as it can travel in JSON: an identifier whose text is not UTF-8
// is left out, with a rejection in `left_out`, as the engine rejects it;
// a source (free text, only logged) has such bytes replaced. Traits and
// the region stay as they are: a record with such a trait is refused whole,
// as the engine refuses it.
Record Sendable(const Record& record, std::vector<Rejection>* left_out) {
  Record out;
  out.traits = record.traits;
  out.default_region = record.default_region;
  out.source = ToValidUtf8(record.source);
  out.record_id = ToValidUtf8(record.record_id);
  for (const RawIdentifier& id : record.identifiers) {
    if (!FindInvalidUtf8(id.type) && !FindInvalidUtf8(id.value)) {
      out.identifiers.push_back(id);
    } else {
      left_out->push_back({id.type, id.value, "not valid UTF-8"});
    }
  }
  return out;
}

}  // namespace

RpcSink::RpcSink(const std::string& url, std::string token)
    : url_(ParseServiceUrl(url)), token_(std::move(token)) {}

std::vector<UpsertResult> RpcSink::BatchUpsert(std::span<const Record> records) {
  return Send(records, nullptr);
}

std::vector<UpsertResult> RpcSink::BatchUpsert(std::span<const Record> records,
                                               const BatchReceipt& receipt) {
  receipt.RequireOnePerRecord(records.size());
  return Send(records, &receipt);
}

void RpcSink::ForgetReceipts(std::int64_t job) {
  Call("ForgetReceipts", client::ForgetReceiptsJson(job));
}

std::vector<UpsertResult> RpcSink::Send(std::span<const Record> records,
                                        const BatchReceipt* receipt) {
  std::vector<UpsertResult> results(records.size());
  std::vector<std::vector<Rejection>> left_out(records.size());  // identifiers not sent
  // Requests of whole records: indexes into `records`, and their JSON.
  std::vector<std::size_t> part;
  std::vector<std::string> jsons;
  std::size_t bytes = 0;
  const auto flush = [&] {
    if (!part.empty()) PostSplitting(part, jsons, receipt, results);
    part.clear();
    jsons.clear();
    bytes = 0;
  };
  for (std::size_t i = 0; i < records.size(); ++i) {
    std::optional<std::string> json = client::RecordJson(Sendable(records[i], &left_out[i]));
    if (!json) {
      results[i].error = "a trait or the region is not valid UTF-8";
      continue;
    }
    const std::size_t size = json->size() + 1;
    // One larger than a request should be goes alone: if the service
    // refuses it for its size, that record is refused, not its neighbours.
    const bool alone = size > kMaxBodyBytes;
    if (part.size() == kMaxRecordsPerRequest || (!part.empty() && bytes + size > kMaxBodyBytes)) {
      flush();
    }
    part.push_back(i);
    jsons.push_back(std::move(*json));
    bytes += size;
    if (alone) flush();
  }
  flush();
  for (std::size_t i = 0; i < records.size(); ++i) {
    results[i].rejected.insert(results[i].rejected.end(), left_out[i].begin(), left_out[i].end());
  }
  return results;
}

void RpcSink::PostSplitting(const std::vector<std::size_t>& indexes,
                            const std::vector<std::string>& jsons, const BatchReceipt* receipt,
                            std::vector<UpsertResult>& results) {
  std::optional<BatchReceipt> part_receipt;
  if (receipt != nullptr) {
    part_receipt = BatchReceipt{receipt->job, {}};
    for (std::size_t i : indexes) part_receipt->items.push_back(receipt->items[i]);
  }
  std::vector<UpsertResult> answers;
  try {
    answers = PostBatch(jsons, part_receipt ? &*part_receipt : nullptr);
  } catch (const RequestTooLargeError& e) {
    // The service takes less than this client assumed (--max-body-bytes):
    // halves, down to the one record it cannot take.
    if (indexes.size() == 1) {
      results[indexes.front()].error = e.what();
      return;
    }
    const std::size_t half = indexes.size() / 2;
    PostSplitting({indexes.begin(), indexes.begin() + half}, {jsons.begin(), jsons.begin() + half},
                  receipt, results);
    PostSplitting({indexes.begin() + half, indexes.end()}, {jsons.begin() + half, jsons.end()},
                  receipt, results);
    return;
  }
  if (answers.size() != indexes.size()) {
    throw InternalError("the service answered " + std::to_string(answers.size()) + " results for " +
                        std::to_string(indexes.size()) + " records");
  }
  for (std::size_t k = 0; k < indexes.size(); ++k) results[indexes[k]] = std::move(answers[k]);
}

std::vector<UpsertResult> RpcSink::PostBatch(const std::vector<std::string>& record_jsons,
                                             const BatchReceipt* receipt) {
  auto parsed = client::ParseBatchResponse(
      Call("BatchUpsert", client::BatchRequestJson(record_jsons, receipt)));
  if (auto* error = std::get_if<std::string>(&parsed)) throw InternalError(*error);
  return std::get<std::vector<UpsertResult>>(std::move(parsed));
}

std::string RpcSink::Call(const std::string& method, std::string body) {
  return CallService(url_, token_, method, std::move(body));
}

}  // namespace idres::batch

// UpsertSink: where an import sends its batches: straight into an Engine, or
// through the RPC service (rpc_sink.h). Both keep receipts (the service
// passes them to its Engine), so a resumed import applies each record once.
//
// Thread-safety: BatchUpsert() is called from every import worker at once;
// implementations must allow that.
#pragma once

#include <span>
#include <vector>

#include "engine/engine.h"
#include "engine/record.h"

namespace idres::batch {

class UpsertSink {
 public:
  virtual ~UpsertSink() = default;
  // One result per record, in order (a bad record gets its own error). An
  // infrastructure failure throws an EngineError subclass (engine/errors.h);
  // records of a failed call may have been committed in part, which is safe
  // to send again because upserts are idempotent merges.
  virtual std::vector<UpsertResult> BatchUpsert(std::span<const Record> records) = 0;

  // The same with exactly-once receipts (engine/record.h, BatchReceipt), so
  // that records committed before a crash are not applied again on resume.
  // A sink that cannot keep receipts sends the records as they are.
  virtual std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                                const BatchReceipt& /*receipt*/) {
    return BatchUpsert(records);
  }

  // Drops the receipts of `job` once its import is complete.
  virtual void ForgetReceipts(std::int64_t /*job*/) {}
};

// Sends batches to an Engine in this process.
class EngineSink : public UpsertSink {
 public:
  explicit EngineSink(Engine& engine) : engine_(engine) {}
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records) override {
    return engine_.BatchUpsert(records);
  }
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const BatchReceipt& receipt) override {
    return engine_.BatchUpsert(records, receipt);
  }
  void ForgetReceipts(std::int64_t job) override { engine_.ForgetReceipts(job); }

 private:
  Engine& engine_;
};

}  // namespace idres::batch

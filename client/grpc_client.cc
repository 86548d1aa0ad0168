#include "client/grpc_client.h"

#include <grpcpp/grpcpp.h>

#include <stdexcept>
#include <thread>
#include <vector>

#include "api/idres/v1/identity.grpc.pb.h"
#include "api/service/proto_mapping.h"
#include "client/status_errors.h"

namespace idres::client {
namespace {

Outcome OutcomeOf(v1::Outcome outcome) {
  switch (outcome) {
    case v1::OUTCOME_CREATED:
      return Outcome::kCreated;
    case v1::OUTCOME_UPDATED:
      return Outcome::kUpdated;
    case v1::OUTCOME_MERGED:
      return Outcome::kMerged;
    default:
      return Outcome::kUnchanged;
  }
}

// The fields of a result the callers read.
UpsertResult ResultOf(const v1::BatchUpsertResult& r) {
  UpsertResult result;
  result.person_id = r.person_id();
  result.score = r.score();
  result.outcome = OutcomeOf(r.outcome());
  result.merged_person_ids.assign(r.merged_person_ids().begin(), r.merged_person_ids().end());
  if (r.has_error()) result.error = r.error().code() + ": " + r.error().message();
  return result;
}

// The service's code of a gRPC status (gRPC's numbers are the service's).
api::Code CodeOf(const grpc::Status& status) {
  return api::CodeNumbered(static_cast<int>(status.error_code())).value_or(api::Code::kUnknown);
}

[[noreturn]] void Throw(const grpc::Status& status) {
  ThrowStatus(CodeOf(status), status.error_message());
}

// A stub on a channel with a connection of its own, as a separate client
// has: channels to one target would otherwise share one.
std::unique_ptr<v1::IdentityService::Stub> OwnStub(const std::string& target,
                                                   const GrpcClientOptions& options) {
  auto credentials = grpc::InsecureChannelCredentials();
  if (options.tls) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = options.root_pem;
    credentials = grpc::SslCredentials(ssl);
  }
  grpc::ChannelArguments arguments;
  arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return v1::IdentityService::NewStub(grpc::CreateCustomChannel(target, credentials, arguments));
}

void Prepare(grpc::ClientContext& context, const GrpcClientOptions& options) {
  if (!options.token.empty()) context.AddMetadata("authorization", "Bearer " + options.token);
}

}  // namespace

struct GrpcClient::Impl {
  GrpcClientOptions options;
  std::unique_ptr<v1::IdentityService::Stub> stub;
};

GrpcClient::GrpcClient(const std::string& target, GrpcClientOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->stub = OwnStub(target, impl_->options);
}

GrpcClient::~GrpcClient() = default;

StoreStats GrpcClient::Stats() {
  v1::StatsResponse response;
  grpc::ClientContext context;
  Prepare(context, impl_->options);
  const grpc::Status status = impl_->stub->Stats(&context, v1::StatsRequest{}, &response);
  if (!status.ok()) Throw(status);
  StoreStats stats;
  stats.persons = response.persons();
  stats.merged_away = response.merged_away();
  stats.identifiers = response.identifiers();
  return stats;
}

UpsertResult GrpcClient::Upsert(const Record& record) {
  v1::UpsertRequest request;
  api::FillRecord(record, *request.mutable_record());
  v1::UpsertResponse response;
  grpc::ClientContext context;
  Prepare(context, impl_->options);
  const grpc::Status status = impl_->stub->Upsert(&context, request, &response);
  if (!status.ok()) Throw(status);
  UpsertResult result;
  result.person_id = response.person_id();
  result.score = response.score();
  result.outcome = OutcomeOf(response.outcome());
  result.merged_person_ids.assign(response.merged_person_ids().begin(),
                                  response.merged_person_ids().end());
  return result;
}

void GrpcClient::UpsertStream(std::span<const Record> records, std::optional<std::int64_t> job,
                              std::int64_t first_item, std::vector<UpsertResult>& answered) {
  grpc::ClientContext context;
  Prepare(context, impl_->options);
  auto stream = impl_->stub->UpsertStream(&context);
  // The writer runs beside the reader: gRPC's flow control holds it when the
  // server reads no further.
  std::thread writer([&] {
    for (std::size_t i = 0; i < records.size(); ++i) {
      v1::UpsertStreamRequest request;
      api::FillRecord(records[i], *request.mutable_record());
      if (job) {
        request.mutable_receipt()->set_job(*job);
        request.mutable_receipt()->set_item(first_item + static_cast<std::int64_t>(i));
      }
      if (!stream->Write(request)) break;
    }
    stream->WritesDone();
  });
  v1::UpsertStreamResponse response;
  while (stream->Read(&response)) answered.push_back(ResultOf(response.result()));
  writer.join();
  const grpc::Status status = stream->Finish();
  if (!status.ok()) Throw(status);
}

}  // namespace idres::client

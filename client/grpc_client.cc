#include "client/grpc_client.h"

#include <grpcpp/grpcpp.h>

#include <thread>

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

[[noreturn]] void Throw(const grpc::Status& status) {
  const auto code = api::CodeNumbered(static_cast<int>(status.error_code()));
  ThrowStatus(code.value_or(api::Code::kUnknown), status.error_message());
}

}  // namespace

struct GrpcClient::Impl {
  GrpcClientOptions options;
  std::unique_ptr<v1::IdentityService::Stub> stub;

  void Prepare(grpc::ClientContext& context) const {
    if (!options.token.empty()) context.AddMetadata("authorization", "Bearer " + options.token);
  }
};

GrpcClient::GrpcClient(const std::string& target, GrpcClientOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  auto credentials = grpc::InsecureChannelCredentials();
  if (impl_->options.tls) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = impl_->options.root_pem;
    credentials = grpc::SslCredentials(ssl);
  }
  grpc::ChannelArguments arguments;
  // A connection of its own, as a separate client has: channels to one
  // target would otherwise share one.
  arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  impl_->stub =
      v1::IdentityService::NewStub(grpc::CreateCustomChannel(target, credentials, arguments));
}

GrpcClient::~GrpcClient() = default;

StoreStats GrpcClient::Stats() {
  v1::StatsResponse response;
  grpc::ClientContext context;
  impl_->Prepare(context);
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
  impl_->Prepare(context);
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
  impl_->Prepare(context);
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

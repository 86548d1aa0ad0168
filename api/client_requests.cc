#include "api/client_requests.h"

#include "api/idres/v1/identity.pb.h"
#include "api/proto_mapping.h"

namespace idres::api {

std::string UpsertRequestProto(const Record& record) {
  v1::UpsertRequest request;
  FillRecord(record, *request.mutable_record());
  return request.SerializeAsString();
}

}  // namespace idres::api

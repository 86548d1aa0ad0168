#include "batch/change_listers.h"

#include <memory>
#include <variant>

#include "batch/service_call.h"
#include "client/client_requests.h"

namespace idres::batch {

ChangeLister EngineChanges(EngineOptions options) {
  auto engine = std::make_shared<std::unique_ptr<Engine>>();
  return [engine, options = std::move(options)](std::int64_t after, std::size_t limit) {
    if (!*engine) *engine = std::make_unique<Engine>(options);
    return (*engine)->ListChanges(after, limit);
  };
}

ChangeLister ServiceChanges(const std::string& url, std::string token) {
  return [service = ParseServiceUrl(url), token = std::move(token)](std::int64_t after,
                                                                    std::size_t limit) {
    const std::string body =
        CallService(service, token, "ListChanges",
                    client::ListChangesRequestProto(after, static_cast<std::int32_t>(limit)),
                    client::kProtoContentType);
    auto parsed = client::ParseListChangesProto(body);
    if (auto* error = std::get_if<std::string>(&parsed)) throw InternalError(*error);
    return std::get<std::vector<Change>>(std::move(parsed));
  };
}

}  // namespace idres::batch

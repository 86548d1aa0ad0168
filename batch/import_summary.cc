#include "batch/import_summary.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace idres::batch {
namespace {

// "type: reason" for one rejected identifier.
std::string RejectionReason(const Rejection& rejection) {
  return rejection.type + ": " + rejection.reason;
}

}  // namespace

std::string DeadLetterReason(const UpsertResult& result) {
  std::string reason;
  for (const Rejection& r : result.rejected) {
    if (!reason.empty()) reason += "; ";
    reason += RejectionReason(r) + " (\"" + r.input + "\")";
  }
  if (!result.error) return reason;
  return reason.empty() ? *result.error : *result.error + " (" + reason + ")";
}

std::string ImportSummary::Add(const UpsertResult& result) {
  for (const Rejection& r : result.rejected) ++rejections[RejectionReason(r)];
  if (result.error) {
    ++rejected;
    ++rejections[*result.error];
  } else {
    if (!result.rejected.empty()) ++partially_rejected;
    ++(*this)[result.outcome];
  }
  return DeadLetterReason(result);
}

void ImportSummary::AddUnreadable(const std::string& reason) {
  ++rejected;
  ++rejections[reason];
}

std::string ImportSummary::ToText() const {
  std::string text = fmt::format(
      "records: {}  created: {}  updated: {}  merged: {}  unchanged: {}  rejected: {}  "
      "partially rejected: {}\n",
      total(), created, updated, merged, unchanged, rejected, partially_rejected);
  text += fmt::format("this run: {} records in {:.1f} s ({:.0f} records/s){}\n", run_records,
                      run_seconds, records_per_second(),
                      resumed_records > 0 ? ", resumed after earlier runs" : "");
  if (resumed_records > 0) {
    text += "earlier runs: " + std::to_string(resumed_records) + " records\n";
  }
  if (!rejections.empty()) text += "rejections by reason:\n";
  for (const auto& [reason, count] : rejections) {
    text += "  " + std::to_string(count) + "  " + reason + "\n";
  }
  return text;
}

std::string ImportSummary::ToJson() const {
  nlohmann::json outcomes = {{"rejected", rejected}};
  for (const Outcome o : kOutcomes) outcomes[std::string(OutcomeName(o))] = (*this)[o];
  nlohmann::json doc = {
      {"records", total()},
      {"outcomes", outcomes},
      {"partially_rejected", partially_rejected},
      {"rejections", rejections},
      {"resumed_records", resumed_records},
      {"run_records", run_records},
      {"duration_seconds", run_seconds},
      {"records_per_second", records_per_second()},
  };
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<ImportSummary> ImportSummary::FromJson(std::string_view json) {
  nlohmann::json doc = nlohmann::json::parse(json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  try {
    ImportSummary s;
    const auto& outcomes = doc.at("outcomes");
    for (const Outcome o : kOutcomes)
      s[o] = outcomes.at(std::string(OutcomeName(o))).get<std::int64_t>();
    s.rejected = outcomes.at("rejected").get<std::uint64_t>();
    s.partially_rejected = doc.at("partially_rejected").get<std::uint64_t>();
    s.rejections = doc.at("rejections").get<std::map<std::string, std::uint64_t>>();
    s.resumed_records = doc.at("resumed_records").get<std::uint64_t>();
    s.run_records = doc.at("run_records").get<std::uint64_t>();
    s.run_seconds = doc.at("duration_seconds").get<double>();
    return s;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace idres::batch

// The steward's commands on records and persons (docs/design.md, "Records,
// judgements and the change feed"), on the database through the engine's
// one path, under the upsert's locks: `idres delete-record` takes a
// record's contribution back; `idres forget` erases a person; `idres split`
// unmerges one; `idres never-match` and `idres always-match` judge two;
// `idres history` prints a person's events. Each prints what it did as
// JSON lines, and names its actor "cli:<user>" in the audit log. Exit
// status 0 when done, 1 when there was no such record or person (or the two
// are one already), 2 for bad flags.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "app/commands.h"
#include "app/engine_flags.h"
#include "batch/job_defaults.h"
#include "engine/engine.h"

namespace idres::app {
namespace {

struct RecordFlags {
  EngineFlags engine;
  std::string source;
  std::string record_id;
  std::int64_t person_id = 0;
  std::vector<std::string> groups;    // split: "SOURCE:ID,SOURCE:ID,..." each
  std::vector<std::int64_t> persons;  // judgements: two ids
};

// "crm:a,crm:b" as record references; nullopt when a part has no ':'.
std::optional<std::vector<RecordRef>> ParseGroup(const std::string& spec) {
  std::vector<RecordRef> out;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t end = std::min(spec.find(',', start), spec.size());
    const std::string part = spec.substr(start, end - start);
    const std::size_t colon = part.find(':');
    if (colon == std::string::npos) return std::nullopt;
    out.push_back({part.substr(0, colon), part.substr(colon + 1)});
    start = end + 1;
  }
  return out;
}

void Print(const nlohmann::json& line) { std::printf("%s\n", line.dump().c_str()); }

// The actor these commands name in the audit log and the history:
// "cli:<user>", the operating-system user who ran them.
std::string CliActor() {
  const passwd* user = getpwuid(geteuid());
  return "cli:" + std::string(user != nullptr ? user->pw_name : std::to_string(geteuid()));
}

int RunDeleteRecord(const RecordFlags& f) {
  auto engine = OpenEngine("delete-record", f.engine);
  if (!engine) return 2;
  std::optional<DeletedRecord> deleted;
  try {
    deleted = engine->DeleteRecord(f.source, f.record_id, {}, CliActor());
  } catch (const std::invalid_argument& e) {
    spdlog::error("delete-record: {}", e.what());
    return 2;
  }
  if (!deleted) {
    spdlog::error("delete-record: no record \"{}\" of source \"{}\" is stored", f.record_id,
                  f.source);
    return 1;
  }
  Print({{"personId", deleted->person_id},
         {"personRemoved", deleted->person_removed},
         {"splitPersonIds", deleted->split_person_ids}});
  return 0;
}

int RunForget(const RecordFlags& f) {
  auto engine = OpenEngine("forget", f.engine);
  if (!engine) return 2;
  const auto erased = engine->ForgetPerson(f.person_id, {}, CliActor());
  if (!erased) {
    spdlog::error("forget: no person {}", f.person_id);
    return 1;
  }
  Print({{"personId", erased->person_id}, {"erasedIds", erased->erased_ids}});
  return 0;
}

int RunSplit(const RecordFlags& f) {
  std::vector<std::vector<RecordRef>> groups;
  for (const std::string& spec : f.groups) {
    auto group = ParseGroup(spec);
    if (!group) {
      spdlog::error("split: --group takes SOURCE:RECORD_ID[,SOURCE:RECORD_ID...], not \"{}\"",
                    spec);
      return 2;
    }
    groups.push_back(std::move(*group));
  }
  auto engine = OpenEngine("split", f.engine);
  if (!engine) return 2;
  try {
    const SplitResult split = engine->SplitPerson(f.person_id, std::move(groups), {}, CliActor());
    if (split.status != SplitResult::Status::kDone) {
      spdlog::error("split: {}", split.reason);
      return 1;
    }
    Print({{"personId", split.person_id}, {"partIds", split.part_ids}});
    return 0;
  } catch (const std::invalid_argument& e) {
    spdlog::error("split: {}", e.what());
    return 1;
  }
}

int RunJudge(const RecordFlags& f, bool never) {
  const char* name = never ? "never-match" : "always-match";
  auto engine = OpenEngine(name, f.engine);
  if (!engine) return 2;
  const std::int64_t a = f.persons.at(0), b = f.persons.at(1);
  if (never) {
    switch (engine->NeverMatch(a, b, {}, CliActor())) {
      case JudgeResult::kDone:
        Print({{"personA", a}, {"personB", b}, {"judged", "never"}});
        return 0;
      case JudgeResult::kSamePerson:
        spdlog::error("{}: {} and {} are one person; split it first", name, a, b);
        return 1;
      case JudgeResult::kNoPerson:
        break;
    }
  } else if (const auto merged = engine->AlwaysMatch(a, b, {}, CliActor())) {
    Print({{"personId", merged->survivor}, {"mergedPersonIds", merged->merged_person_ids}});
    return 0;
  }
  spdlog::error("{}: no person {} or {}", name, a, b);
  return 1;
}

int RunHistory(const RecordFlags& f) {
  auto engine = OpenEngine("history", f.engine);
  if (!engine) return 2;
  const auto events = engine->GetPersonHistory(f.person_id);
  if (events.empty()) {
    spdlog::error("history: no person {}", f.person_id);
    return 1;
  }
  for (const PersonEvent& e : events) {
    nlohmann::json line = {{"at", FormatRfc3339(e.at)}, {"kind", e.kind}};
    if (e.other_id != 0) line["otherId"] = e.other_id;
    if (!e.record_id.empty()) {
      line["source"] = e.source;
      line["recordId"] = e.record_id;
    }
    if (!e.detail.empty()) line["detail"] = e.detail;
    if (!e.actor.empty()) line["actor"] = e.actor;
    Print(line);
  }
  return 0;
}

}  // namespace

void AddRecordCommands(CLI::App& app) {
  auto del = std::make_shared<RecordFlags>();
  auto* d = app.add_subcommand(
      "delete-record", "Delete a record: its contribution leaves its person (which may split)");
  d->add_option("--source", del->source, "The record's source")->required();
  d->add_option("--record-id", del->record_id, "The record's id in its source")->required();
  AddDatabaseFlags(*d, del->engine);
  d->callback([del] { SetExitCode(RunDeleteRecord(*del)); });

  auto forget = std::make_shared<RecordFlags>();
  auto* f = app.add_subcommand("forget", "Erase a person and everything of it (GDPR Art. 17)");
  f->add_option("--person", forget->person_id, "The person's id (or an id merged into it)")
      ->required()
      ->check(CLI::PositiveNumber);
  AddDatabaseFlags(*f, forget->engine);
  f->callback([forget] { SetExitCode(RunForget(*forget)); });

  auto split = std::make_shared<RecordFlags>();
  auto* s = app.add_subcommand("split", "A steward's unmerge: each --group of records a person");
  s->add_option("--person", split->person_id, "The person's id")
      ->required()
      ->check(CLI::PositiveNumber);
  s->add_option("--group", split->groups,
                "SOURCE:RECORD_ID[,...]: one part (repeat; the first keeps the id)")
      ->required();
  AddDatabaseFlags(*s, split->engine);
  s->callback([split] { SetExitCode(RunSplit(*split)); });

  for (const bool never : {true, false}) {
    auto judge = std::make_shared<RecordFlags>();
    auto* j = app.add_subcommand(
        never ? "never-match" : "always-match",
        never ? "Keep two persons apart from now on" : "Merge two persons a steward says are one");
    j->add_option("--persons", judge->persons, "The two persons' ids")->required()->expected(2);
    AddDatabaseFlags(*j, judge->engine);
    j->callback([judge, never] { SetExitCode(RunJudge(*judge, never)); });
  }

  auto history = std::make_shared<RecordFlags>();
  auto* h = app.add_subcommand("history", "Print a person's events, oldest first, as NDJSON");
  h->add_option("--person", history->person_id, "The person's id")
      ->required()
      ->check(CLI::PositiveNumber);
  AddDatabaseFlags(*h, history->engine);
  h->callback([history] { SetExitCode(RunHistory(*history)); });
}

}  // namespace idres::app

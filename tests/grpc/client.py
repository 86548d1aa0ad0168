#!/usr/bin/python3
"""A Python client of `idres serve --grpc-listen` (Debian's python3-grpcio,
stubs generated at test time by stubs.py), driven by grpc_pgtest.cc. Each
subcommand checks what it is told to and exits 0 when every check held, 1
naming the first that did not, 3 when a stream was cut (the server killed).
"""
import argparse
import os
import sys
import traceback

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stubs  # noqa: E402
import workload  # noqa: E402

pb, rpc, hpb, hrpc = stubs.load(os.environ["IDRES_SOURCE_DIR"])


check = workload.check


def channel(args):
    if args.tls:
        with open(args.tls, "rb") as f:
            return grpc.secure_channel(args.target, grpc.ssl_channel_credentials(f.read()))
    return grpc.insecure_channel(args.target)


def metadata(args):
    return [("authorization", "Bearer " + args.token)] if args.token else []


def code_of(call):
    """The status code `call()` ended with (OK when it returned)."""
    try:
        call()
        return grpc.StatusCode.OK, ""
    except grpc.RpcError as e:
        return e.code(), e.details()


def ident(type_, value):
    return pb.Identifier(type=type_, value=value)


def rec(source, record_id, *ids, **kw):
    return pb.Record(identifiers=[ident(t, v) for t, v in ids], source=source,
                     record_id=record_id, **kw)


def unary_writes(s, md):
    """Upsert, BatchUpsert with a receipt, ForgetReceipts; the person made."""
    a = s.Upsert(pb.UpsertRequest(record=rec("crm", "c-1", ("email", "Anna@Example.com"),
                                             ("phone", "+49 170 1234567"))), metadata=md)
    check(a.outcome == pb.OUTCOME_CREATED and a.person_id > 0, "Upsert creates a person")
    again = s.Upsert(pb.UpsertRequest(record=rec("crm", "c-2", ("email", "anna@example.com")),
                                      explain=True), metadata=md)
    check(again.person_id == a.person_id and again.HasField("explanation"),
          "Upsert with explain finds the person and says why")
    batch = s.BatchUpsert(pb.BatchUpsertRequest(
        records=[rec("web", "w-1", ("email", "bob@example.com")),
                 rec("web", "w-2", ("phone", "banana"))],
        receipt=pb.BatchReceipt(job=7, items=[0, 1])), metadata=md)
    check(len(batch.results) == 2, "BatchUpsert answers each record")
    check(batch.results[0].outcome == pb.OUTCOME_CREATED, "BatchUpsert creates bob")
    check(batch.results[1].error.code == "invalid_argument", "a bad record has its own error")
    s.ForgetReceipts(pb.ForgetReceiptsRequest(job=7), metadata=md)
    return a.person_id, batch.results[0].person_id


def unary_reads(s, md, anna, bob):
    person = s.GetPerson(pb.GetPersonRequest(person_id=anna), metadata=md).person
    check(any(i.value == "anna@example.com" for i in person.identifiers), "GetPerson")
    found = s.Lookup(pb.LookupRequest(identifier=ident("phone", "+491701234567")), metadata=md)
    check(found.person.person_id == anna, "Lookup finds anna by phone")
    check(s.Stats(pb.StatsRequest(), metadata=md).persons >= 2, "Stats counts the persons")
    changes = s.ListChanges(pb.ListChangesRequest(after_position=0), metadata=md)
    check(len(changes.changes) >= 2 and changes.next_after_position >= 2, "ListChanges")
    why = s.Explain(pb.ExplainRequest(record=rec("x", "x", ("email", "bob@example.com"))),
                    metadata=md)
    check(why.explanation.person_id == bob, "Explain decides for bob")
    pair = s.ExplainPair(pb.ExplainPairRequest(person_a=anna, person_b=bob), metadata=md)
    check(pair.person_a == anna and pair.person_b == bob, "ExplainPair")
    s.ListPossibleMatches(pb.ListPossibleMatchesRequest(limit=10), metadata=md)
    model = s.GetModel(pb.GetModelRequest(), metadata=md)
    check(model.threshold > model.review_threshold > 0 and
          any(c.type == "email" and c.levels[0].name == "exact" for c in model.comparisons),
          "GetModel answers the model")
    history = s.GetPersonHistory(pb.GetPersonHistoryRequest(person_id=anna), metadata=md)
    check(len(history.events) >= 2, "GetPersonHistory")


def unary_steward(s, md, anna, bob):
    carol = s.Upsert(pb.UpsertRequest(record=rec("web", "w-3", ("email", "carol@example.com"))),
                     metadata=md).person_id
    s.NeverMatch(pb.JudgeRequest(person_a=anna, person_b=carol), metadata=md)
    judged = s.ExplainPair(pb.ExplainPairRequest(person_a=anna, person_b=carol), metadata=md)
    check(judged.judgement == "never", "NeverMatch is kept")
    merged = s.AlwaysMatch(pb.JudgeRequest(person_a=anna, person_b=bob), metadata=md)
    check(merged.person_id in (anna, bob), "AlwaysMatch merges")
    split = s.SplitPerson(pb.SplitPersonRequest(person_id=merged.person_id, groups=[
        pb.RecordGroup(records=[pb.RecordRef(source="crm", record_id="c-1"),
                                pb.RecordRef(source="crm", record_id="c-2")]),
        pb.RecordGroup(records=[pb.RecordRef(source="web", record_id="w-1")])]), metadata=md)
    check(len(split.part_ids) == 1, "SplitPerson makes one part")
    deleted = s.DeleteRecord(pb.DeleteRecordRequest(source="crm", record_id="c-2"), metadata=md)
    check(not deleted.person_removed, "DeleteRecord leaves c-1's person")
    erased = s.ForgetPerson(pb.ForgetPersonRequest(person_id=carol), metadata=md)
    check(carol in erased.erased_ids, "ForgetPerson")


def unary_errors(s, md):
    code, _ = code_of(lambda: s.GetPerson(pb.GetPersonRequest(person_id=999999), metadata=md))
    check(code == grpc.StatusCode.NOT_FOUND, "an unknown id is NOT_FOUND")
    code, _ = code_of(lambda: s.Upsert(pb.UpsertRequest(record=pb.Record()), metadata=md))
    check(code == grpc.StatusCode.INVALID_ARGUMENT, "a record with no identifier")
    code, _ = code_of(lambda: next(s.WatchChanges(pb.WatchChangesRequest(after_position=-1),
                                                  metadata=md)))
    check(code == grpc.StatusCode.INVALID_ARGUMENT, "a negative position is INVALID_ARGUMENT")
    many = pb.Record(identifiers=[ident("cookie", "c%d" % i) for i in range(10000)])
    code, details = code_of(lambda: s.Upsert(pb.UpsertRequest(record=many), metadata=md))
    check(code == grpc.StatusCode.RESOURCE_EXHAUSTED and "10000" in details,
          "10,000 identifiers are RESOURCE_EXHAUSTED, as over Connect: %s %s" % (code, details))


def unary(args):
    s = rpc.IdentityServiceStub(channel(args))
    if args.token:
        for call in (lambda: s.Stats(pb.StatsRequest()),
                     lambda: s.Upsert(pb.UpsertRequest(record=rec("a", "b", ("email", "a@b.c")))),
                     lambda: s.Stats(pb.StatsRequest(), metadata=[("authorization", "Bearer no")]),
                     # The caller first: a bad request tells a stranger nothing.
                     lambda: next(s.WatchChanges(pb.WatchChangesRequest(after_position=-1)))):
            check(code_of(call)[0] == grpc.StatusCode.UNAUTHENTICATED,
                  "without the token: UNAUTHENTICATED")
    md = metadata(args)
    anna, bob = unary_writes(s, md)
    unary_reads(s, md, anna, bob)
    unary_steward(s, md, anna, bob)
    unary_errors(s, md)


def deadline(args):
    s = rpc.IdentityServiceStub(channel(args))
    code, _ = code_of(lambda: s.Upsert(pb.UpsertRequest(record=rec(
        "crm", "held", ("email", args.email))), timeout=0.3, metadata=metadata(args)))
    check(code == grpc.StatusCode.DEADLINE_EXCEEDED, "a held lock outlasts 300 ms: %s" % code)


def health(args):
    h = hrpc.HealthStub(channel(args))
    want = hpb.HealthCheckResponse.ServingStatus.Value(args.expect)
    for service in ("", "idres.v1.IdentityService"):
        got = h.Check(hpb.HealthCheckRequest(service=service)).status
        check(got == want, "health of %r: %s, expected %s" % (service, got, args.expect))
    code, _ = code_of(lambda: h.Check(hpb.HealthCheckRequest(service="no.Such")))
    check(code == grpc.StatusCode.NOT_FOUND, "an unknown service is NOT_FOUND")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command")
    parser.add_argument("target")
    parser.add_argument("--tls", help="the server's certificate (PEM), trusted as the root")
    parser.add_argument("--token", default="")
    parser.add_argument("--email", default="held@example.com")
    parser.add_argument("--expect", default="SERVING")
    workload.add_arguments(parser)
    args = parser.parse_args()
    commands = {"unary": unary, "deadline": deadline, "health": health,
                "reflection": workload.reflection, "stream": workload.stream,
                "watch": workload.watch}
    code = 0
    try:
        if args.command in ("reflection", "stream", "watch"):
            with channel(args) as ch:
                commands[args.command](args, ch, pb, rpc)
        else:
            commands[args.command](args)
    except workload.CheckFailed as e:
        print("check failed: %s" % e, file=sys.stderr)
        code = 1
    except workload.Cut as e:
        print("stream cut: %s" % e, file=sys.stderr)
        code = 3
    except Exception:  # what Python would print and exit with, without its shutdown
        traceback.print_exc()
        code = 1
    # grpcio's objects left to the interpreter's shutdown can deadlock it
    # (seen after a stream cut by kill -9: the exit hung in a finalizer's
    # lock): flush and leave without the shutdown.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main()

"""The longer runs of tests/grpc/client.py: server reflection through a
generic call, an UpsertStream of many records with receipts, and a
WatchChanges follower that reconnects after its last position."""
import os
import threading
import time

import grpc
from google.protobuf import descriptor_pb2


class Cut(Exception):
    """A stream ended by the server going away."""


def add_arguments(parser):
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="number of the first record")
    parser.add_argument("--job", type=int, default=0, help="receipt job; 0: no receipts")
    parser.add_argument("--progress", help="file that gets the number of answers so far")
    parser.add_argument("--out", help="file that gets each position seen, one a line")
    parser.add_argument("--target-file", help="file that says the last position to wait for")


class CheckFailed(Exception):
    """A check of the test did not hold."""


def check(condition, what):
    if not condition:
        raise CheckFailed(what)


# --- reflection: grpc.reflection.v1alpha by hand-encoded messages, as a
# generic tool (grpcurl) sends them.

def _fields(data):
    """(number, bytes) of each length-delimited field of a message."""
    i, out = 0, []
    while i < len(data):
        key, i = _varint(data, i)
        if key & 7 == 2:
            n, i = _varint(data, i)
            out.append((key >> 3, data[i:i + n]))
            i += n
        elif key & 7 == 0:
            _, i = _varint(data, i)
        else:
            raise ValueError("unexpected wire type %d" % (key & 7))
    return out


def _varint(data, i):
    value, shift = 0, 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


def _string_field(number, text):
    raw = text.encode()
    return bytes([number << 3 | 2, len(raw)]) + raw


def reflection(args, channel, pb, rpc):
    call = channel.stream_stream("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo")
    list_services = _string_field(7, "")
    file_of = _string_field(4, "idres.v1.IdentityService")
    answers = list(call(iter([list_services, file_of])))
    check(len(answers) == 2, "reflection answers both requests")
    listed = [f for n, f in _fields(answers[0]) if n == 6]
    names = {_fields(s)[0][1].decode() for _, s in _fields(listed[0])}
    check("idres.v1.IdentityService" in names, "reflection lists the service: %s" % names)
    check("grpc.health.v1.Health" in names, "and the health service: %s" % names)
    files = [f for n, f in _fields(answers[1]) if n == 4]
    protos = [descriptor_pb2.FileDescriptorProto.FromString(b) for _, b in _fields(files[0])]
    methods = {m.name for p in protos for s in p.service if s.name == "IdentityService"
               for m in s.method}
    check({"Upsert", "UpsertStream", "WatchChanges"} <= methods,
          "its descriptor names the methods: %s" % methods)


# --- UpsertStream: deterministic records; a tenth of them a name alone (of
# letters unique to the record), which weighs too little to match anything,
# itself included, so one applied twice would be a second person.

def _letters(n):
    out = ""
    for _ in range(4):
        out += chr(ord("a") + n % 26)
        n //= 26
    return out


def record(pb, i):
    if i % 10 == 0:
        return pb.Record(identifiers=[
            pb.Identifier(type="name", value="%s %s" % (_letters(i), _letters(i * 7 + 3)))])
    return pb.Record(identifiers=[pb.Identifier(type="email", value="user%d@example.org" % (i // 3)),
                                  pb.Identifier(type="cookie", value="ck-%d" % i)],
                     source="stream", record_id="r-%d" % i)


def stream(args, channel, pb, rpc):
    stub = rpc.IdentityServiceStub(channel)

    def requests():
        for i in range(args.first, args.first + args.records):
            request = pb.UpsertStreamRequest(record=record(pb, i))
            if args.job:
                request.receipt.job, request.receipt.item = args.job, i
            yield request

    answered, unchanged = 0, 0
    try:
        for response in stub.UpsertStream(requests(), metadata=_metadata(args)):
            check(not response.result.HasField("error"), "record %d: %s" % (
                answered, response.result.error.message))
            unchanged += response.result.outcome == pb.OUTCOME_UNCHANGED
            answered += 1
            if args.progress and answered % 500 == 0:
                _write(args.progress, str(answered))
    except grpc.RpcError as e:
        raise Cut("%s after %d answers: %s" % (e.code(), answered, e.details()))
    check(answered == args.records, "every record answered: %d" % answered)
    print("answered %d, unchanged %d" % (answered, unchanged))


def _metadata(args):
    return [("authorization", "Bearer " + args.token)] if args.token else []


def _write(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


# --- WatchChanges: positions 1, 2, ... each once and in order, across the
# server's restarts, until the position the driver names.

def _target(args):
    try:
        with open(args.target_file) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


class _Follower:
    """Follows the feed, calling again after its last position when a stream
    ends; the stream never ends by itself, so a side thread cancels it once
    the driver's target position is reached."""

    def __init__(self, args, stub, pb, out):
        self.args, self.stub, self.pb, self.out = args, stub, pb, out
        self.last, self.ends, self.call = 0, [], None
        self.lock = threading.Lock()

    def done(self):
        target = _target(self.args)
        return target is not None and self.last >= target

    def cancel_when_done(self, finished):
        while not finished.wait(0.05):
            if self.done():
                with self.lock:
                    if self.call is not None:
                        self.call.cancel()

    def follow_once(self):
        request = self.pb.WatchChangesRequest(after_position=self.last)
        with self.lock:
            self.call = self.stub.WatchChanges(request, metadata=_metadata(self.args))
        for message in self.call:
            for change in message.changes:
                check(change.position == self.last + 1, "position %d after %d" % (
                    change.position, self.last))
                self.last = change.position
                self.out.write("%d %d %d\n" % (change.position, change.person_id, change.kind))
            self.out.flush()


def watch(args, channel, pb, rpc):
    with open(args.out, "w") as out:
        follower = _Follower(args, rpc.IdentityServiceStub(channel), pb, out)
        finished = threading.Event()
        canceller = threading.Thread(target=follower.cancel_when_done, args=(finished,))
        canceller.start()
        try:
            for _ in range(3000):  # bounds the reconnects; each waits 100 ms at most
                try:
                    follower.follow_once()
                    follower.ends.append("OK")
                except grpc.RpcError as e:
                    follower.ends.append(e.code().name)
                if follower.done():
                    print("ends: %s" % " ".join(follower.ends))
                    return
                time.sleep(0.1)
        finally:
            finished.set()
            canceller.join()
    check(False, "the feed never reached the target; last %d" % follower.last)

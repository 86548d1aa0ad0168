"""The Python stubs of idres.v1 and grpc.health.v1, generated at test time
with Debian's protoc and grpc_python_plugin from the repository's .proto
files, into a temporary folder that is removed once they are imported (the
clients leave through os._exit, which runs no atexit handler)."""
import importlib
import os
import shutil
import subprocess
import sys
import tempfile

PROTOS = ["idres/v1/identity.proto", "idres/health/v1/health.proto"]


def load(source_dir):
    """Returns (identity_pb2, identity_pb2_grpc, health_pb2, health_pb2_grpc)."""
    out = tempfile.mkdtemp(prefix="idres-grpc-stubs-")
    try:
        api = os.path.join(source_dir, "api")
        subprocess.run(
            ["/usr/bin/protoc", "-I" + api, "-I/usr/include", "--python_out=" + out,
             "--grpc_out=" + out, "--plugin=protoc-gen-grpc=/usr/bin/grpc_python_plugin"]
            + PROTOS, check=True)
        sys.path.insert(0, out)
        try:
            return tuple(importlib.import_module(m) for m in (
                "idres.v1.identity_pb2", "idres.v1.identity_pb2_grpc",
                "idres.health.v1.health_pb2", "idres.health.v1.health_pb2_grpc"))
        finally:
            sys.path.remove(out)
    finally:
        shutil.rmtree(out, True)

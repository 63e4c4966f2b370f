"""A Redis of the tests' own (Debian's redis-server on a free port), to stop, freeze and start again
without touching the machine's Redis on 6379: the fault tests of issue 28 run against a real one."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from .servers import free_port


class OwnRedis:
    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = tempfile.mkdtemp(prefix="companion-redis-")
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        command = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", self.folder, "--logfile", os.path.join(self.folder, "log")]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not self.answers():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"redis-server on {self.port} did not start")
            time.sleep(0.05)

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """As a crash or a restart leaves it: connections refused."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None

    def freeze(self) -> None:
        """SIGSTOP: the port still accepts connections and nothing ever answers (a hung Redis)."""
        os.kill(self.proc.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self.proc.pid, signal.SIGCONT)


@contextlib.contextmanager
def own_redis():
    if not (shutil.which("redis-server") or os.path.exists("/usr/bin/redis-server")):
        raise RuntimeError("the fault tests need Debian's redis-server: apt-get install redis-server")
    redis = OwnRedis()
    redis.start()
    try:
        yield redis
    finally:
        if redis.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                redis.thaw()
        redis.stop()
        shutil.rmtree(redis.folder, ignore_errors=True)

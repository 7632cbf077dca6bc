"""The score pad under a game night's load: 50 phones on 20 games, each with its game's event
stream open (as the page keeps it) and sending one field about every second, against a real
``kkprint serve`` process on this machine. Bounded: it runs for ``--seconds`` and stops.

    .venv/bin/python benchmarks/pad_load.py               # 30 s of load, then the figures
    .venv/bin/python benchmarks/pad_load.py --seconds 10 --phones 20

Each answer's time is measured at the phone, from the request's first byte to the answer's last.
The same load is then sent to a floor: a bare uvicorn + Starlette process that answers every
request with a fixed JSON and keeps each event stream open, sending nothing — what any Python
web server costs here. The figures are printed with their ratio to the floor; the target
(SPEC §5.1) is p99 ≤ 100 ms. Only 127.0.0.1 is ever sent anything.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["kardinal"] * 8 + ["webofpower"] * 4 + ["webofpower-board"] * 4 + ["court"] * 2 + ["culdcept"] * 2
NAMES = ["Aki", "Ben", "Chie", "Dan", "Eri"]
LANDS = ["france", "saxony", "hungary", "castile", "franconia", "bavaria", "italy", "england", "denmark"]

FLOOR = textwrap.dedent(
    """
    import asyncio, sys, uvicorn
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse, StreamingResponse
    from starlette.routing import Route

    async def answer(request):
        await request.body()
        return JSONResponse({"id": request.path_params.get("id", "floor"), "version": 1, "conflicts": []})

    async def events(request):
        async def nothing():
            yield b": open\\n\\n"
            while True:
                await asyncio.sleep(3600)
        return StreamingResponse(nothing(), media_type="text/event-stream")

    app = Starlette(routes=[
        Route("/api/games", answer, methods=["POST"]),
        Route("/api/games/{id}", answer, methods=["GET", "PUT"]),
        Route("/api/games/{id}/fields", answer, methods=["POST"]),
        Route("/api/games/{id}/events", events),
    ])
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", access_log=False)
    """
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(command: list[str], port: int, env: dict | None = None) -> subprocess.Popen:
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process
        except OSError:
            if process.poll() is not None:
                raise SystemExit("the server did not start: " + process.stderr.read().decode()) from None
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start within 30 s")


class Connection:
    """One keep-alive HTTP/1.1 connection, as a phone's browser keeps one to the pad."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: object | None = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        )
        self.writer.write(head.encode() + data)
        assert self.reader is not None
        status_line = await self.reader.readline()
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        return int(status_line.split()[1]), payload


async def listen(port: int, game: str, stop: asyncio.Event, counted: list[int]) -> None:
    """A phone's open event stream: read and count what is pushed, until the run ends."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/games/{game}/events?lang=en HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    while not stop.is_set():
        try:
            chunk = await asyncio.wait_for(reader.read(65536), 0.5)
        except TimeoutError:
            continue
        if not chunk:
            break
        counted[0] += chunk.count(b"event: view")
    writer.close()


def change(game: str, seat: int, rng: random.Random) -> dict:
    """One field as a phone of that seat would change it."""
    if game == "kardinal":
        return {"path": f"players.{seat}.lands.{rng.choice(LANDS)}.cards", "value": rng.randint(0, 3)}
    if game == "webofpower":
        return {
            "path": f"monasteries.{rng.randrange(4)}.{rng.randrange(12)}",
            "value": rng.choice([".", str(seat + 1)]),
        }
    if game == "webofpower-board":
        return {"path": f"regions.{rng.randint(1, 9)}.monasteries.{seat}", "value": rng.randint(0, 3)}
    if game == "court":
        return {"path": f"players.{seat}.dice", "value": [rng.randint(1, 6) for _ in range(5)]}
    return {"path": f"squares.{rng.randrange(13)}.owner", "value": rng.choice([NAMES[0], NAMES[1]])}


async def phone(port, game_id, game, seat, seconds, warmup, timings, errors, seed):
    rng = random.Random(seed)
    connection = Connection(port)
    await asyncio.sleep(rng.random())  # phones do not start in step
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        sent = time.perf_counter()
        try:
            status, _ = await connection.request(
                "POST", f"/api/games/{game_id}/fields?lang=en", {"changes": [change(game, seat, rng)]}
            )
        except (OSError, asyncio.IncompleteReadError, ValueError):
            errors.append("connection")
            connection = Connection(port)
            continue
        took = time.perf_counter() - sent
        if status != 200:
            errors.append(str(status))
        elif sent - started >= warmup:
            timings.append(took)
        await asyncio.sleep(max(0.0, rng.uniform(0.8, 1.2) - took))


async def load(port: int, phones: int, seconds: float, warmup: float, floor: bool) -> dict:
    setup = Connection(port)
    games = []
    for game in GAMES:
        status, body = await setup.request("POST", "/api/games", {"game": game})
        game_id = json.loads(body)["id"]
        if not floor:
            seats = {"webofpower": 3, "court": 2, "culdcept": 2}.get(game, 3)
            names = [
                {"path": f"players.{i}.name" if game in ("kardinal", "court") else f"players.{i}", "value": NAMES[i]}
                for i in range(seats)
            ]
            await setup.request("POST", f"/api/games/{game_id}/fields", {"changes": names})
        games.append((game_id, game))
    stop, pushed = asyncio.Event(), [0]
    listeners = [asyncio.create_task(listen(port, games[i % len(games)][0], stop, pushed)) for i in range(phones)]
    timings: list[float] = []
    errors: list[str] = []
    await asyncio.gather(
        *(
            phone(port, *games[i % len(games)], (i // len(games)) % 2, seconds, warmup, timings, errors, seed=i)
            for i in range(phones)
        )
    )
    stop.set()
    await asyncio.gather(*listeners, return_exceptions=True)
    timings.sort()

    def at(q: float) -> float:
        return 1000 * timings[min(len(timings) - 1, int(q * len(timings)))]

    return {
        "requests": len(timings),
        "per_second": round(len(timings) / (seconds - warmup), 1),
        "errors": len(errors),
        "pushed": pushed[0],
        "p50_ms": round(at(0.50), 1),
        "p90_ms": round(at(0.90), 1),
        "p99_ms": round(at(0.99), 1),
        "max_ms": round(1000 * timings[-1], 1),
        "mean_ms": round(1000 * statistics.fmean(timings), 1),
    }


def run(kind: str, phones: int, seconds: float, warmup: float) -> dict:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        if kind == "floor":
            script = Path(folder) / "floor.py"
            script.write_text(FLOOR)
            server = start([sys.executable, str(script), str(port)], port)
        else:
            env = {**os.environ, "KKPRINT_DATA_DIR": folder, "KKPRINT_LANG": "en"}
            server = start([sys.executable, "-m", "kkprint", "serve", "--port", str(port)], port, env)
        try:
            return asyncio.run(load(port, phones, seconds, warmup, kind == "floor"))
        finally:
            server.terminate()
            server.wait(timeout=15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    args = parser.parse_args()
    print(
        f"{args.phones} phones on {len(GAMES)} games, one field each about every second, {args.seconds:.0f} s "
        f"({args.warmup:.0f} s warm-up left out); {os.cpu_count()} cores\n"
    )
    figures = {kind: run(kind, args.phones, args.seconds, args.warmup) for kind in ("kkprint", "floor")}
    print(
        f"{'':8} {'answers':>8} {'/s':>6} {'errors':>6} {'pushed':>7} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} {'max ms':>7}"
    )
    for kind, f in figures.items():
        print(
            f"{kind:8} {f['requests']:>8} {f['per_second']:>6} {f['errors']:>6} {f['pushed']:>7} "
            f"{f['p50_ms']:>7} {f['p90_ms']:>7} {f['p99_ms']:>7} {f['max_ms']:>7}"
        )
    ratio = figures["kkprint"]["p99_ms"] / max(0.1, figures["floor"]["p99_ms"])
    print(f"\np99 {figures['kkprint']['p99_ms']} ms (target ≤ 100 ms), {ratio:.1f}× the floor's")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

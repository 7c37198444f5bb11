"""Start-up benchmark: how long `tidings --help` takes, side by side with `python -c pass`.

    python benchmarks/startup.py [--runs N] [--json]

Each command runs N times (default 15), interleaved so a busy machine slows them alike; the
median and the fastest wall time are printed, with the time above `python -c pass` (the
interpreter's own start, which no code of ours can shorten). The commands run exactly as the
`tidings` console script does (`from tidings.cli import main; main()`). It also names the heavy
libraries each command loaded: `--help` should load no database driver, ORM or renderer.
Target (issue #24): `tidings --help` under 0.3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 0.3
HEAVY = ("sqlalchemy", "pydantic", "httpx", "markdown_it", "jinja2", "weasyprint", "openai")

ENTRY = "import sys; from tidings.cli import main; sys.argv[0] = 'tidings'; main()"
COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "import tidings": ["-c", "import tidings"],
    "tidings --help": ["-c", ENTRY, "--help"],
    "tidings report daily --help": ["-c", ENTRY, "report", "daily", "--help"],
}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    env["COLUMNS"] = "100"
    return env


def _once(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def _loaded(args: list[str], env: dict[str, str]) -> list[str]:
    """The heavy libraries the command imported (read at exit from sys.modules)."""
    probe = (
        "import atexit, sys\n"
        f"HEAVY = {HEAVY!r}\n"
        "atexit.register(lambda: sys.__stderr__.write('LOADED:' + ','.join("
        "h for h in HEAVY if h in sys.modules) + '\\n'))\n"
    )
    code = args[args.index("-c") + 1]
    rest = args[args.index("-c") + 2 :]
    done = subprocess.run(
        [sys.executable, "-c", probe + code, *rest],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("LOADED:"))
    return [name for name in line[len("LOADED:") :].split(",") if name]


def measure(runs: int) -> dict[str, Any]:
    env = _env()
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for args in COMMANDS.values():  # warm the file cache and .pyc files first
        _once(args, env)
    for _ in range(runs):
        for name, args in COMMANDS.items():
            times[name].append(_once(args, env))
    base = statistics.median(times["python -c pass"])
    rows = {
        name: {
            "median_s": round(statistics.median(t), 3),
            "min_s": round(min(t), 3),
            "above_python_s": round(statistics.median(t) - base, 3),
            "loads": _loaded(COMMANDS[name], env),
        }
        for name, t in times.items()
    }
    help_s = rows["tidings --help"]["median_s"]
    return {
        "runs": runs,
        "commands": rows,
        "target_s": TARGET_S,
        "help_under_target": help_s < TARGET_S,
    }


def render(result: dict[str, Any]) -> str:
    lines = [f"start-up, median of {result['runs']} runs each (interleaved)", ""]
    lines.append(f"{'command':<30} {'median':>8} {'fastest':>8} {'above python':>13}  loads")
    for name, row in result["commands"].items():
        loads = ", ".join(row["loads"]) or "-"
        lines.append(
            f"{name:<30} {row['median_s']:>7.3f}s {row['min_s']:>7.3f}s "
            f"{row['above_python_s']:>12.3f}s  {loads}"
        )
    verdict = "PASS" if result["help_under_target"] else "FAIL"
    lines += ["", f"tidings --help under {result['target_s']} s: {verdict}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = measure(max(1, args.runs))
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

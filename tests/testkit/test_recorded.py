"""The recorded-answers endpoint (testkit/servers/recorded.py): answers by exact prompt, then by
task and item; unknown prompts kept for a user to answer; follow-ups answered with the first
answer and counted; recording from an upstream and replaying it; and the whole round trip
through tidings, as docs/evaluate.md tells a user to run it.

These tests talk to the endpoint with plain httpx, so a bug in it cannot hide behind the same
bug in tidings' provider; the round trips then use tidings itself.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from testkit.servers.openai import FakeOpenAI, correct_answer
from testkit.servers.recorded import (
    MISSING,
    RECORDED,
    RecordedOpenAI,
    parse_content,
    prompt_key,
    records_from_cache,
)
from tidings.analysis import prompts

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "evaluate.md"
SYSTEM = prompts.system_prompt(prompts.PR_TASK, "en")


def pr_request(numbers: list[int], *, note: str = "") -> dict[str, Any]:
    """A pr_cards request as tidings sends one: system rules, the cards in <data>."""
    size = {"additions": 3, "deletions": 1, "changed_files": 1}
    cards = [
        {"number": n, "title": f"PR {n}{note}", "size": size, "files": [], "body": ""}
        for n in numbers
    ]
    return section_request("pr_cards", {"items": cards}, system=SYSTEM)


def section_request(task: str, body: dict[str, Any], *, system: str = "rules") -> dict[str, Any]:
    return {
        "model": "m",
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": prompts.data_block(task, body)},
        ],
        "temperature": 0.2,
    }


def pr_answer(numbers: list[int], word: str = "summary") -> dict[str, Any]:
    return {
        "items": [
            {"number": n, "summary": f"{word} {n}", "why": "", "importance": 0, "notes": []}
            for n in numbers
        ]
    }


def record(request: dict[str, Any], answer: Any, **more: Any) -> dict[str, Any]:
    return {"task": "t", "request": request, "answer": answer, **more}


def post(llm: RecordedOpenAI, body: dict[str, Any], **headers: str) -> httpx.Response:
    return httpx.post(f"{llm.base_url}/chat/completions", json=body, headers=headers, timeout=10)


def content(response: httpx.Response) -> Any:
    """The answer in a completion (FakeOpenAI fences it when no response_format is asked)."""
    assert response.status_code == 200, response.text
    answer = parse_content(response.json()["choices"][0]["message"]["content"])
    assert answer is not None
    return answer


def followup(body: dict[str, Any], answer: Any, objections: list[str]) -> dict[str, Any]:
    """The guard's second turn, as analysis/analyst.py builds it."""
    more = [
        {"role": "assistant", "content": json.dumps(answer)},
        {"role": "user", "content": prompts.regenerate(objections)},
    ]
    return {**body, "messages": body["messages"] + more}


# -- replay ----------------------------------------------------------------------------------


def test_an_unchanged_prompt_gets_its_own_answer() -> None:
    first = pr_request([1, 2])
    # The same PRs in another prompt answered otherwise: the exact prompt wins.
    other = pr_request([1, 2], note=" (edited)")
    records = [record(first, pr_answer([1, 2], "exact")), record(other, pr_answer([1, 2], "late"))]
    with RecordedOpenAI(records) as llm:
        assert content(post(llm, first)) == pr_answer([1, 2], "exact")
        assert content(post(llm, other)) == pr_answer([1, 2], "late")
    assert [r.how for r in llm.requests] == ["prompt", "prompt"]
    assert llm.calls == 2 and llm.unanswered == 0 and llm.followups == 0
    assert prompt_key(first["messages"]) != prompt_key(other["messages"])


def test_a_batch_is_composed_from_the_recorded_items_it_asks_for() -> None:
    records = [
        record(pr_request([1, 2]), pr_answer([1, 2])),
        record(pr_request([3]), pr_answer([3])),
    ]
    with RecordedOpenAI(records) as llm:
        # Cards changed (new titles), batched otherwise, in another order.
        got = content(post(llm, pr_request([3, 1], note=" v2")))
    assert got == {"items": [pr_answer([3])["items"][0], pr_answer([1])["items"][0]]}
    assert llm.requests[0].how == "items" and llm.requests[0].task == "pr_cards"


def test_weekly_sections_by_key_by_number_and_by_task() -> None:
    themes = {"themes": [{"key": "tag:[A]"}, {"key": "path:b"}]}
    risks = {"prs": [{"number": 7}, {"number": 8}]}
    keyed = {"items": [{"key": "tag:[A]", "text": "A moved."}, {"key": "path:b", "text": "B."}]}
    risky = {
        "items": [
            {"number": n, "observation": f"risk {n}", "follow_up": f"fix {n}"} for n in (7, 8)
        ]
    }
    records = [
        record(section_request("weekly_themes", {"facts": themes}), keyed),
        record(section_request("weekly_risks", {"facts": risks}), risky),
        record(section_request("weekly_exec", {"facts": {"merged_prs": 3}}), {"text": "Three."}),
        record(section_request("topic", {"facts": {"topic": "AMD"}}), {"text": "AMD moved."}),
        record(section_request("topic", {"facts": {"topic": "TPU"}}), {"text": "TPU moved."}),
    ]
    with RecordedOpenAI(records) as llm:
        asked: dict[str, Any] = {"themes": [{"key": "path:b", "prs": [1]}]}
        assert content(post(llm, section_request("weekly_themes", {"facts": asked}))) == {
            "items": [{"key": "path:b", "text": "B."}]
        }
        asked = {"prs": [{"number": 8, "title": "new"}]}
        assert content(post(llm, section_request("weekly_risks", {"facts": asked}))) == {
            "items": [risky["items"][1]]
        }
        again = section_request("weekly_exec", {"facts": {"merged_prs": 4}})
        assert content(post(llm, again)) == {"text": "Three."}
        tpu = section_request("topic", {"facts": {"topic": "TPU", "count": 2}})
        assert content(post(llm, tpu)) == {"text": "TPU moved."}
    assert [r.how for r in llm.requests] == ["items", "items", "task", "task"]


def test_an_unknown_prompt_is_kept_in_missing_jsonl_and_answered_once_filled(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    known = pr_request([1])
    (folder / RECORDED).write_text(json.dumps(record(known, pr_answer([1]))) + "\n", "utf-8")
    asked = pr_request([1, 9])  # #9 has no recorded answer: the whole prompt is unanswered
    with RecordedOpenAI(folder) as llm:
        refused = post(llm, asked)
        post(llm, asked)  # asked again (a retry): kept once
        post(llm, section_request("weekly_exec", {"facts": {}}))
    assert refused.status_code == 422 and "missing.jsonl" in refused.text
    assert llm.unanswered == 3 and llm.calls == 3
    lines = [json.loads(x) for x in (folder / MISSING).read_text("utf-8").splitlines()]
    assert [x["task"] for x in lines] == ["pr_cards", "weekly_exec"]
    assert lines[0]["request"] == asked and lines[0]["answer"] is None
    assert llm.missing == lines

    # The user answers the missing prompts in place; a fresh endpoint answers them, and
    # asks nothing twice.
    lines[0]["answer"] = pr_answer([1, 9], "filled")
    lines[1]["answer"] = {"text": "Filled."}
    (folder / MISSING).write_text("".join(json.dumps(x) + "\n" for x in lines), "utf-8")
    with RecordedOpenAI(folder) as again:
        assert content(post(again, asked)) == pr_answer([1, 9], "filled")
        assert content(post(again, section_request("weekly_exec", {"facts": {}}))) == {
            "text": "Filled."
        }
    assert again.unanswered == 0 and not again.missing


def test_a_default_answers_what_no_record_does_and_is_still_counted(tmp_path: Path) -> None:
    records = [record(pr_request([1]), pr_answer([1], "recorded"))]
    with RecordedOpenAI(records, folder=tmp_path, default=correct_answer) as llm:
        got = content(post(llm, pr_request([1, 9])))
    assert got["items"][0] == pr_answer([1], "recorded")["items"][0]
    assert got["items"][1]["number"] == 9 and got["items"][1]["summary"].startswith("Model:")
    assert llm.unanswered == 1 and llm.requests[0].how == "default"
    assert len((tmp_path / MISSING).read_text("utf-8").splitlines()) == 1


def test_a_followup_gets_the_first_answer_and_is_counted() -> None:
    first = pr_request([1, 2])
    again = followup(first, pr_answer([1, 2]), ['item 2: "summary 2" cites what the data lacks: 2'])
    repair = {
        **first,
        "messages": first["messages"]
        + [
            {"role": "assistant", "content": "{"},
            {"role": "user", "content": "That answer is not usable: invalid JSON. Reply again."},
        ],
    }
    records = [record(pr_request([1, 2], note="!"), pr_answer([1, 2]))]  # by item, not prompt
    with RecordedOpenAI(records) as llm:
        answers = [content(post(llm, body)) for body in (first, again, repair)]
    assert answers == [pr_answer([1, 2])] * 3
    assert (llm.calls, llm.followups, llm.repairs, llm.unanswered) == (3, 1, 1, 0)
    assert llm.requests[1].objections == ['item 2: "summary 2" cites what the data lacks: 2']


def test_a_model_that_adapts_answers_followups_with_its_rewrite() -> None:
    first = pr_request([1, 2])
    records = [record(first, pr_answer([1, 2]), rewritten_after_objections=pr_answer([2], "new"))]
    with RecordedOpenAI(records, followups="rewritten") as llm:
        changed = pr_request([2, 1], note="+")  # not the recorded prompt: composed per item
        got = content(post(llm, followup(changed, pr_answer([2, 1]), ["item 2: wrong"])))
        exact = content(post(llm, followup(first, pr_answer([1, 2]), ["item 2: wrong"])))
    assert got == {"items": [pr_answer([2], "new")["items"][0], pr_answer([1])["items"][0]]}
    assert exact == pr_answer([2], "new")
    assert llm.followups == 2


# -- recording -------------------------------------------------------------------------------


def test_recording_forwards_saves_and_replays(tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    body = pr_request([4, 5])
    with FakeOpenAI() as upstream, RecordedOpenAI(folder, upstream=upstream.base_url) as rec:
        first = post(rec, body, Authorization="Bearer sk-secret-123")
        second = post(rec, body)  # recorded now: not asked again
        objected = followup(body, content(first), ["item 4: wrong"])
        third = post(rec, objected)  # a follow-up is asked, and recorded whole
    assert content(first) == correct_answer(body) == content(second)
    assert upstream.calls == 2 and upstream.requests[0].headers["authorization"].endswith("123")
    assert [r.how for r in rec.requests] == ["upstream", "prompt", "upstream"]
    saved = (folder / RECORDED).read_text("utf-8")
    assert "sk-secret" not in saved
    lines = [json.loads(x) for x in saved.splitlines()]
    assert [x["request"] for x in lines] == [body, objected]
    assert lines[0]["answer"] == content(first) and lines[0]["task"] == "pr_cards"

    with RecordedOpenAI(folder) as replay:
        assert content(post(replay, body)) == content(first)
        assert content(post(replay, objected)) == content(third)
        assert content(post(replay, pr_request([5]))) == {"items": [content(first)["items"][1]]}
    assert [r.how for r in replay.requests] == ["prompt", "prompt", "items"]


def test_upstream_errors_pass_through_and_nothing_is_recorded(tmp_path: Path) -> None:
    from testkit.servers.openai import Status

    with FakeOpenAI() as upstream, RecordedOpenAI(tmp_path, upstream=upstream.base_url) as rec:
        upstream.script(Status(429, retry_after=0))
        assert post(rec, pr_request([1])).status_code == 429
    assert not (tmp_path / RECORDED).exists() and rec.recorded == []


# -- through tidings -------------------------------------------------------------------------


def _demo_store(path: Path) -> str:
    from tidings.demo import SAMPLE_PATH
    from tidings.sources.snapshot import import_snapshot
    from tidings.store import Store

    store = Store.open(f"sqlite:///{path}")
    import_snapshot(store, SAMPLE_PATH)
    store.close()
    return f"sqlite:///{path}"


def _day(url: str, base_url: str) -> Any:
    import tidings
    from tidings.common.config import parse_config
    from tidings.demo import CONFIG_PATH, REPO

    text = CONFIG_PATH.read_text("utf-8") + f'\n[llm]\nbase_url = "{base_url}"\nmodel = "m"\n'
    config = parse_config(text)
    return tidings.build_daily(url, REPO, "2026-03-12", "en", config=config, llm=True)


def test_a_day_recorded_through_tidings_replays_on_a_fresh_store(tmp_path: Path) -> None:
    """What docs/evaluate.md calls keeping the recorded set as a regression test."""
    clean = _demo_store(tmp_path / "clean.db")
    for name in ("rec.db", "replay.db", "cache.db"):
        shutil.copy(tmp_path / "clean.db", tmp_path / name)
    folder = tmp_path / "set"
    with FakeOpenAI() as upstream, RecordedOpenAI(folder, upstream=upstream.base_url) as rec:
        recorded = _day(clean.replace("clean", "rec"), rec.base_url)
    assert rec.recorded and upstream.calls == len(rec.recorded) == rec.calls

    with RecordedOpenAI(folder) as replay:
        replayed = _day(clean.replace("clean", "replay"), replay.base_url)
    assert replay.calls == rec.calls and replay.unanswered == 0
    assert {r.how for r in replay.requests} == {"prompt"}
    assert replayed.model_dump(exclude={"provenance"}) == recorded.model_dump(
        exclude={"provenance"}
    )

    # The answers the recording left in its store's cache replay by task and item alone.
    records = records_from_cache(clean.replace("clean", "rec"), model="m")
    assert {r["task"] for r in records} >= {"pr_cards", "summary"}
    with RecordedOpenAI(records) as cached:
        from_cache = _day(clean.replace("clean", "cache"), cached.base_url)
    assert cached.unanswered == 0
    assert {r.how for r in cached.requests} <= {"items", "task"}
    assert from_cache.summary == recorded.summary


# -- docs/evaluate.md ------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text("utf-8"), re.DOTALL)


@pytest.mark.slow  # four tidings commands in fresh processes, ~30 s
def test_the_evaluate_doc_commands_work(tmp_path: Path) -> None:
    """Every command of docs/evaluate.md, run as written, in order, in a fresh folder, and
    then its regression test; the only substitutions: the doc's model URL is a loopback
    FakeOpenAI, its port a free one, and TIDINGS_CHECKOUT this checkout."""
    port = str(_free_port())
    with FakeOpenAI() as model:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TIDINGS_", "GITHUB_"))}
        env |= {
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
            "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
            "MODEL_URL": model.base_url,
            "TIDINGS_CHECKOUT": str(ROOT),
        }
        for block in _blocks("sh"):
            done = subprocess.run(
                ["bash", "-e", "-c", block.replace("8011", port)],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            assert done.returncode == 0, f"{block}\n{done.stdout}\n{done.stderr}"
        python = _blocks("python")
        assert len(python) == 1
        test_file = tmp_path / "test_w10.py"
        test_file.write_text(python[0], "utf-8")
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-n",
                "0",
                "test_w10.py",
            ],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
    assert model.calls > 0
    assert (tmp_path / "evals" / "rapidinfer-w10" / RECORDED).is_file()

"""test_hostile_close - Document.close() racing verify calls on other threads: no crash, whole results, then ValueError."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ethos_py import Document

REPO = Path(__file__).resolve().parent.parent
DOCUMENT = REPO / "schemas" / "examples" / "document.example.json"
CITATIONS = REPO / "schemas" / "examples" / "citations.example.json"

# The race runs in a child interpreter: a use-after-free there is a crash (SIGSEGV) this test
# reports as a failure, not the end of the pytest run.
RACE = textwrap.dedent(
    """
    import json, sys, threading, time
    from pathlib import Path
    from ethos_py import Document

    document_bytes = Path(sys.argv[1]).read_bytes()
    citations = json.dumps(json.loads(Path(sys.argv[2]).read_bytes()), separators=(",", ":")).encode()
    rounds, workers = int(sys.argv[3]), int(sys.argv[4])
    with Document.from_bytes(document_bytes) as reference:
        expected = reference.verify_json(citations)
        expected_batch = reference.verify_batch_json([citations, citations])
    completed = refused = 0
    for _ in range(rounds):
        document = Document.from_bytes(document_bytes)
        started = threading.Barrier(workers + 1)
        outcomes = []

        def work(index):
            started.wait()
            done = 0
            while True:
                try:
                    if index % 3 == 0:
                        ok = document.verify_batch_json([citations, citations]) == expected_batch
                    elif index % 3 == 1:
                        ok = document.verify_json(citations) == expected
                    else:
                        ok = document.describe_json().startswith(b"{")
                except ValueError as error:
                    outcomes.append(("refused", done, "closed" in str(error)))
                    return
                if not ok:
                    outcomes.append(("wrong", done, False))
                    return
                done += 1

        threads = [threading.Thread(target=work, args=(i,)) for i in range(workers)]
        for thread in threads:
            thread.start()
        started.wait()
        time.sleep(0.02)
        document.close()
        assert document.closed
        for thread in threads:
            thread.join()
        assert len(outcomes) == workers, outcomes
        for kind, done, named in outcomes:
            assert kind == "refused" and named, outcomes
            completed += done
            refused += 1
    print(completed, refused)
    """
)


def test_close_while_threads_verify_neither_crashes_nor_cuts_a_call_short() -> None:
    rounds, workers = 8, 8
    result = subprocess.run(
        [sys.executable, "-c", RACE, str(DOCUMENT), str(CITATIONS), str(rounds), str(workers)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    completed, refused = (int(part) for part in result.stdout.split())
    assert refused == rounds * workers  # every worker saw the documented error once the document closed
    assert completed > 0  # and the calls that ran before close returned whole, correct results


def test_calls_after_close_raise_the_documented_error() -> None:
    document = Document.from_bytes(DOCUMENT.read_bytes())
    citations = json.dumps(json.loads(CITATIONS.read_bytes()), separators=(",", ":")).encode()
    report = document.verify_json(citations)
    assert json.loads(report)["checks"]
    document.close()
    document.close()
    for call in (
        lambda: document.verify_json(citations),
        lambda: document.verify_batch_json([citations]),
        document.describe_json,
    ):
        with pytest.raises(ValueError, match="operation on a closed ethos_py.Document"):
            call()


def test_close_waits_for_a_call_in_flight() -> None:
    # A call holding the handle (as every native call does) keeps close() from freeing it.
    import threading

    document = Document.from_bytes(DOCUMENT.read_bytes())
    closed = threading.Event()
    with document._borrowed_handle():
        closer = threading.Thread(target=lambda: (document.close(), closed.set()))
        closer.start()
        assert not closed.wait(0.2)  # close() is waiting for the call
        assert document.closed  # but new calls are already refused
        with pytest.raises(ValueError, match="closed"):
            document.describe_json()
    closer.join(10)
    assert closed.is_set()

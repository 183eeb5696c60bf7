"""test_report_html_corpus - the corpus view of a real `ethos batch` run (`batch --html`, `report html SUMMARY.json`): every figure on the page is the summary's, documents worst rate first, hostile claims and labels shown as text under a policy without scripts, the same bytes from a rerun, a resumed run and `report html`, nothing written on a failure, malformed summaries refused."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import harness
import pytest
from conftest import schema_errors
from corpus_view_job import ETHOS, HOSTILE_CLAIM, HOSTILE_LABEL, batch, env, ethos, make_job

from ethos_py.batch_summary import summarize
from ethos_py.errors import EthosError
from ethos_py.report_html import CONTENT_SECURITY_POLICY
from ethos_py.report_html_corpus import ARTIFACT_TYPE, render_corpus_html


class Page(HTMLParser):
    """The page as a reader sees it: each section's table rows (cells' text and attributes), the
    text and attributes of elements with an id, the title, the policy and every tag seen."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[str] = []
        self.rows: dict[str, list[list[tuple[str, dict[str, str]]]]] = {}
        self.captions: dict[str, str] = {}
        self.ids: dict[str, tuple[str, dict[str, str]]] = {}
        self.tags: list[str] = []
        self.policy = ""
        self.title = ""
        self._cell: list[Any] | None = None
        self._open: list[tuple[str, str, dict[str, str], list[str]]] = []  # (tag, id, attrs, text) of elements with an id
        self._in_body = self._in_caption = self._in_title = False
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        self.tags.append(tag)
        if tag == "meta" and values.get("http-equiv") == "Content-Security-Policy":
            self.policy = values["content"]
        if tag == "section":
            self.sections.append(values.get("id", ""))
        if tag == "tbody":
            self._in_body = True
            self.rows[self.sections[-1]] = []
        if tag == "tr" and self._in_body:
            self.rows[self.sections[-1]].append([])
        if tag == "td" and self._in_body:
            self._cell = ["", values]
        if tag == "caption":
            self._in_caption = True
            self.captions[self.sections[-1]] = ""
        if tag == "title":
            self._in_title = True
        if "id" in values and tag != "section":
            self._open.append((tag, values["id"], values, []))

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self.sections.pop()
        if tag == "tbody":
            self._in_body = False
        if tag == "td" and self._cell is not None:
            self.rows[self.sections[-1]][-1].append((" ".join(self._cell[0].split()), self._cell[1]))
            self._cell = None
        if tag == "caption":
            self._in_caption = False
        if tag == "title":
            self._in_title = False
        if self._open and self._open[-1][0] == tag:
            _, name, values, text = self._open.pop()
            self.ids[name] = ("".join(text), values)

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[0] += data
        if self._in_caption:
            self.captions[self.sections[-1]] += data
        if self._in_title:
            self.title += data
        for element in self._open:
            element[3].append(data)

    def table(self, section: str) -> list[list[str]]:
        return [[text for text, _ in row] for row in self.rows[section]]

    def values(self, section: str, column: int) -> list[float]:
        return [float(row[column][1]["data-value"]) for row in self.rows[section]]


def _count(text: str) -> int:
    return int(text.replace(",", ""))


def _percent_of(text: str) -> float:
    """The number a percentage cell shows, as a fraction ('<0.1%' and '>99.9%' as their bound)."""
    return float(text.split()[-1].lstrip("<>").rstrip("%")) / 100


def _statuses(counts: dict[str, int]) -> str:
    return ", ".join(f"{status} {count}" for status, count in sorted(counts.items()) if status != "grounded") or "–"


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = make_job(tmp_path_factory.mktemp("corpus-view"))
    done = batch(root, "out.jsonl", "--html", "out.html", "--workers", "2", "--chunk-records", "4")
    assert done.returncode == 0, done.stderr
    html = (root / "out.html").read_text(encoding="utf-8")
    return {"root": root, "summary": json.loads((root / "out.summary.json").read_bytes()), "html": html,
            "page": Page(html), "out": [json.loads(line) for line in (root / "out.jsonl").read_bytes().splitlines()]}


def test_the_headline_and_statuses_are_the_summarys(job: dict[str, Any]) -> None:
    summary, page = job["summary"], job["page"]
    assert schema_errors("batch-summary", summary) == []
    # The job is the mixture it should be: every section has rows to check.
    assert summary["records"] == 14 and 0 < summary["grounded"] < 14
    assert {row["kind"] for row in summary["by_kind"]} == {"quote", "presence", "invalid"}
    text, attributes = page.ids["grounded-rate"]
    assert float(attributes["data-value"]) == summary["grounded_rate"]
    assert abs(_percent_of(text) - summary["grounded"] / summary["records"]) < 0.0005
    assert _count(page.ids["grounded-count"][0]) == summary["grounded"] == sum(r["ethos"]["status"] == "grounded" for r in job["out"])
    assert _count(page.ids["record-count"][0]) == summary["records"]
    assert f"records, over {len(summary['by_document'])} document(s).</p>" in job["html"]
    assert [(status, _count(n)) for status, n, _ in page.table("statuses")] == sorted(summary["counts"].items())
    assert page.title == "Ethos corpus report"


def test_documents_are_the_summarys_worst_rate_first_ties_by_label(job: dict[str, Any]) -> None:
    summary, page = job["summary"], job["page"]
    rows = page.rows["documents"]
    assert len(rows) == len(summary["by_document"]) == 5
    by_label = {row["document"]: row for row in summary["by_document"]}
    shown = []
    for cells in rows:
        label = None if cells[0][0].startswith("(no document") else cells[0][0]
        expected = by_label[label]
        fingerprint = expected["document_fingerprint"]
        assert cells[1][0] == ("–" if fingerprint is None else fingerprint[:19] + "…")
        if fingerprint is not None:
            assert f'title="{fingerprint}"' in job["html"]
        assert (_count(cells[2][0]), _count(cells[3][0])) == (expected["records"], expected["grounded"])
        assert cells[4][0] == _statuses(expected["counts"])
        assert float(cells[5][1]["data-value"]) == expected["grounded_rate"]
        assert abs(_percent_of(cells[5][0]) - expected["grounded"] / expected["records"]) < 0.0005
        shown.append((expected["grounded"] / expected["records"], label is None, label or ""))
    assert shown == sorted(shown) and len({rate for rate, _, _ in shown}) < len(shown)  # there is a tie to break
    assert HOSTILE_LABEL in by_label and any(cells[0][0] == HOSTILE_LABEL for cells in rows)
    # Ties go by label, not by fingerprint or input order: fingerprints ranked against the labels,
    # rows given in reverse, the same order.
    ranked = sorted((row["document"] or "" for row in summary["by_document"]), reverse=True)
    crossed = {**summary, "by_document": [{**row, "document_fingerprint": f"sha256:{ranked.index(row['document'] or ''):064d}"}
                                          for row in reversed(summary["by_document"])]}
    relabelled = [cells[0][0] for cells in Page(render_corpus_html(crossed)).rows["documents"]]
    assert relabelled == [cells[0][0] for cells in rows]


def test_kinds_reasons_and_tiers_are_the_summarys(job: dict[str, Any]) -> None:
    summary, page = job["summary"], job["page"]
    assert [(k, _count(r), _count(g)) for k, r, g, _ in page.table("kinds")] == [
        (row["kind"], row["records"], row["grounded"]) for row in summary["by_kind"]]
    assert page.values("kinds", 3) == [row["grounded_rate"] for row in summary["by_kind"]]
    failed = summary["records"] - summary["grounded"]
    reasons = page.table("reasons")
    assert [(r, _count(n)) for r, n, _ in reasons] == [(row["reason"], row["records"]) for row in summary["by_reason"]]
    assert all(abs(_percent_of(share) - _count(n) / failed) < 0.0005 for _, n, share in reasons)
    tiers = page.table("tiers")
    names = [None if t.startswith("(no matched") else t for t, *_ in tiers]
    assert names == [row["tier"] for row in summary["by_tier"]] and names[-1] is None  # the presence claim
    assert [_count(g) for _, g, _, _ in tiers] == [row["grounded"] for row in summary["by_tier"]]
    running = 0
    for cells, row in zip(page.rows["tiers"], summary["by_tier"]):
        running += row["grounded"]
        assert float(cells[2][1]["data-value"]) == round(row["grounded"] / summary["records"], 6)
        assert float(cells[3][1]["data-value"]) == round(running / summary["records"], 6)
    # Every grounded claim is at some tier: the ladder ends at the overall grounded rate.
    assert running == summary["grounded"] and abs(_percent_of(tiers[-1][3]) - summary["grounded"] / summary["records"]) < 0.0005


def test_most_failed_claims_with_their_reasons(job: dict[str, Any]) -> None:
    summary, page = job["summary"], job["page"]
    rows = page.table("most-failed")
    assert len(rows) == len(summary["most_failed"]) >= 4
    for number, (cells, row) in enumerate(zip(rows, summary["most_failed"]), 1):
        reasons = ", ".join(f"{r} {n}" for r, n in sorted(row["reasons"].items(), key=lambda item: (-item[1], item[0])))
        # The shown claim: the text itself, its invisible characters as U+XXXX marks.
        claim = " ".join(row["claim"].replace("\u202e", "U+202E").split())
        assert cells == [str(number), claim, str(row["failures"]), str(row["documents"]), reasons]
    hostile = next(row for row in summary["most_failed"] if row["claim"] == HOSTILE_CLAIM)
    assert hostile["failures"] == 2 and hostile["documents"] == 2


def test_hostile_claims_and_labels_are_text_under_a_policy_without_scripts(job: dict[str, Any]) -> None:
    html, page = job["html"], job["page"]
    # The markup of the claim and the label is text: no script, image or <b> element exists.
    assert "script" not in page.tags and "img" not in page.tags and "b" not in page.tags
    assert "<script" not in html and "&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;" in html
    assert "http://" not in html and "https://" not in html and "\u202e" not in html and "U+202E" in html
    assert "q&lt;b&gt;&amp;amp;&#39;x.pdf" in html
    # The evidence report's policy, but no script may run at all.
    assert page.policy == CONTENT_SECURITY_POLICY.split("; script-src")[0] + "; script-src 'none'; base-uri 'none'; form-action 'none'"
    assert "default-src 'none'" in page.policy and "unsafe" not in page.policy
    assert html.count("<style>") == 1 and html.startswith("<!DOCTYPE html>")


def test_report_html_of_the_summary_and_a_rerun_give_the_same_bytes(job: dict[str, Any]) -> None:
    root = job["root"]
    done = ethos(root, "report", "html", "out.summary.json", "--out", "again.html")
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert (root / "again.html").read_bytes() == (root / "out.html").read_bytes()
    to_stdout = ethos(root, "report", "html", "out.summary.json")
    assert to_stdout.stdout.encode("utf-8") == (root / "out.html").read_bytes()
    # Another worker count and chunking: the same summary, so the same page.
    rerun = batch(root, "rerun.jsonl", "--html", "rerun.html", "--workers", "1", "--chunk-records", "5")
    assert rerun.returncode == 0, rerun.stderr
    assert (root / "rerun.html").read_bytes() == (root / "out.html").read_bytes()
    assert render_corpus_html(job["summary"]).encode("utf-8") == (root / "out.html").read_bytes()
    assert render_corpus_html(root / "out.summary.json") == render_corpus_html(str(root / "out.summary.json"))


def test_a_killed_run_resumed_writes_the_same_page(tmp_path: Path) -> None:
    root = make_job(tmp_path, repeat=40)
    reference = batch(root, "reference.jsonl", "--html", "reference.html", "--workers", "2", "--chunk-records", "9")
    assert reference.returncode == 0, reference.stderr
    args = [*ETHOS, "batch", "claims.jsonl", "--corpus", "corpus", "-o", "out.jsonl", "--html", "out.html", "--quiet",
            "--workers", "2", "--chunk-records", "9"]
    process = subprocess.Popen(args, cwd=root, env=env(root), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    journal = root / ".out.jsonl.ethos-batch" / "journal.jsonl"
    deadline = time.monotonic() + harness.SUBPROCESS_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and len(journal.read_bytes().splitlines()) >= 4:  # a header and three chunks
            break
        time.sleep(0.01)
    assert process.poll() is None, "the run ended before it could be interrupted"
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert not (root / "out.html").exists()  # the page comes with the finished run only
    resumed = batch(root, "out.jsonl", "--html", "out.html", "--workers", "2", "--chunk-records", "9", "--resume")
    assert resumed.returncode == 0 and "kept from the interrupted run" in resumed.stderr, resumed.stderr
    assert (root / "out.html").read_bytes() == (root / "reference.html").read_bytes()
    assert _count(Page((root / "out.html").read_text(encoding="utf-8")).ids["record-count"][0]) == 14 * 40


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


def test_html_in_a_missing_directory_is_refused_before_any_work(tmp_path: Path) -> None:
    root = make_job(tmp_path)
    done = batch(root, "out.jsonl", "--html", "no/such/dir/out.html")
    error = json.loads(done.stderr)["error"]
    assert done.returncode == 2 and error["code"] == "host_io" and error["details"]["argument"] == "--html", done.stderr
    assert error["details"]["path"] == "no/such/dir/out.html"
    assert not (root / "out.jsonl").exists() and not (root / "out.summary.json").exists() and _leftovers(root) == []


def test_a_page_that_cannot_be_written_fails_the_run_without_a_partial_file(tmp_path: Path) -> None:
    root = make_job(tmp_path)
    (root / "taken.html").mkdir()  # a directory where the page should go: the rename over it fails
    done = batch(root, "out.jsonl", "--html", "taken.html")
    error = json.loads(done.stderr)["error"]
    assert done.returncode == 2 and error["code"] == "host_io" and error["details"]["argument"] == "--html", done.stderr
    assert error["details"]["path"] == "taken.html"
    assert (root / "taken.html").is_dir() and list((root / "taken.html").iterdir()) == []
    # No temporary page is left beside it, and the output was not written: the job can be resumed.
    assert not [name for name in _leftovers(root) if name.startswith(".ethos-out-")]
    assert not (root / "out.jsonl").exists() and (root / ".out.jsonl.ethos-batch").is_dir()
    (root / "taken.html").rmdir()
    resumed = batch(root, "out.jsonl", "--html", "taken.html", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert render_corpus_html(root / "out.summary.json").encode("utf-8") == (root / "taken.html").read_bytes()


def test_a_job_that_cannot_start_writes_no_page(tmp_path: Path) -> None:
    root = make_job(tmp_path)
    done = ethos(root, "batch", "claims.jsonl", "--corpus", "missing-corpus", "-o", "out.jsonl", "--html", "out.html")
    assert done.returncode == 2 and json.loads(done.stderr)["error"]["code"] == "invalid_input", done.stderr
    assert not (root / "out.html").exists() and not (root / "out.jsonl").exists()


@pytest.mark.parametrize("option", ["--source", "--pdf", "--decision"])
def test_options_of_the_evidence_report_are_refused_for_a_summary(job: dict[str, Any], option: str) -> None:
    root = job["root"]
    done = ethos(root, "report", "html", "out.summary.json", option, "out.summary.json", "--out", "wrong.html")
    error = json.loads(done.stderr)["error"]
    assert done.returncode == 2 and error["code"] == "invalid_input", done.stderr
    assert error["details"] == {"argument": option, "reason": "not_for_a_batch_summary"}
    assert not (root / "wrong.html").exists()


@pytest.mark.parametrize(("change", "path"), [
    (lambda s: s["by_document"][0].update(records="3"), "$.by_document[0].records"),
    (lambda s: s.pop("by_tier"), "$.by_tier"),
    (lambda s: s["most_failed"].insert(0, {"claim": 7}), "$.most_failed[0].claim"),
    (lambda s: s.update(grounded_rate=1.5), "$.grounded_rate"),
    (lambda s: s["counts"].update(grounded=-1), "$.counts"),
    (lambda s: s["by_kind"].__setitem__(0, []), "$.by_kind[0]"),
])
def test_a_malformed_summary_is_refused_at_its_first_wrong_field(job: dict[str, Any], tmp_path: Path, change: Any,
                                                                 path: str) -> None:
    summary = json.loads(json.dumps(job["summary"]))
    change(summary)
    (tmp_path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    done = ethos(tmp_path, "report", "html", "summary.json", "--out", "wrong.html")
    error = json.loads(done.stderr)["error"]
    assert done.returncode == 2 and error["code"] == "invalid_input", done.stderr
    assert error["details"] == {"argument": "REPORT", "path": path, "reason": "not_a_batch_summary"}
    assert not (tmp_path / "wrong.html").exists()
    with pytest.raises(EthosError) as raised:
        render_corpus_html(summary)
    assert raised.value.details == {"argument": "SUMMARY", "path": path, "reason": "not_a_batch_summary"}


def test_an_other_artifact_is_still_the_evidence_reports_business(job: dict[str, Any], tmp_path: Path) -> None:
    # Not a summary (another artifact type): report html reads it as a verification report and says it is none.
    summary = {**job["summary"], "artifact_type": ARTIFACT_TYPE.replace("v1", "v9")}
    (tmp_path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    done = ethos(tmp_path, "report", "html", "summary.json")
    assert done.returncode == 2 and json.loads(done.stderr)["error"]["details"]["reason"] == "not_a_report", done.stderr


def test_long_document_lists_are_cut_and_the_rest_counted(job: dict[str, Any]) -> None:
    summary = job["summary"]
    page = Page(render_corpus_html(summary, max_documents=2))
    rows = page.rows["documents"]
    assert len(rows) == 2
    full = Page(job["html"]).rows["documents"]
    assert [c[0][0] for c in rows] == [c[0][0] for c in full[:2]]  # the worst two
    rest = full[2:]
    records, grounded = sum(_count(c[2][0]) for c in rest), sum(_count(c[3][0]) for c in rest)
    assert f"The {len(rest)} other document(s) ({records} records, {grounded} grounded) are in the summary JSON." in page.captions["documents"]


def test_rates_are_never_rounded_to_none_or_all() -> None:
    # 1 of 5,000 records not grounded (and, in another job, 1 of 5,000 grounded): never "100.0%" or "0.0%".
    def job(grounded: int) -> dict[str, Any]:
        lines = [json.dumps({"claim": f"c{i}", "ethos": {"status": "grounded" if i < grounded else "not_found",
                                                         "reason": "no_match", "source": "a.pdf", "match": {"tier": "exact"}}}).encode()
                 for i in range(5000)]
        return summarize(lines)

    almost = Page(render_corpus_html(job(4999)))
    assert almost.ids["grounded-rate"][0] == ">99.9%" and _count(almost.ids["grounded-count"][0]) == 4999
    assert almost.table("statuses") == [["grounded", "4,999", ">99.9%"], ["not_found", "1", "<0.1%"]]
    barely = Page(render_corpus_html(job(1)))
    assert barely.ids["grounded-rate"][0] == "<0.1%" and barely.table("documents")[0][5] == "<0.1%"


def test_an_empty_job_gives_a_page_that_says_so() -> None:
    page = Page(render_corpus_html(summarize([])))
    assert page.ids["grounded-rate"][0] == "–" and _count(page.ids["record-count"][0]) == 0
    assert page.table("documents") == [["None."]] and page.table("most-failed") == [["None."]]

"""test_verify_batch - `verify-batch` (CONTRACTS §1, §2.4, §2.15): NDJSON and merged reports, atomic failures, threads, every surface."""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import Any, cast

import pytest

import ethos_py
from ethos_py import EthosCli, EthosCommandError, EthosError
from ethos_py._json import dumps

PAYLOAD: dict[str, Any] = {
    "pages": [
        {"id": "p0001", "index": 1, "width": 61200, "height": 79200, "rotation": 0},
        {"id": "p0002", "index": 2, "width": 61200, "height": 79200, "rotation": 0},
    ],
    "elements": [
        {"id": "e000001", "type": "heading", "page": "p0001", "bbox": [7200, 6000, 40000, 8400], "text": "Loan terms"},
        {"id": "e000002", "type": "text_block", "page": "p0001", "bbox": [7200, 10000, 54000, 11500],
         "text": "The rate is 4.1% fixed for the first five years."},
        {"id": "e000003", "type": "text_block", "page": "p0001", "bbox": [7200, 11500, 54000, 13000],
         "text": "After that it follows the reference rate."},
        {"id": "e000004", "type": "text_block", "page": "p0002", "bbox": [7200, 10000, 54000, 11500],
         "text": "Repayment starts in May 2026."},
    ],
}


@pytest.fixture(scope="module")
def document(document_tool: Any) -> dict[str, Any]:
    built: dict[str, Any] = document_tool.build_document(PAYLOAD)
    return built


@pytest.fixture(scope="module")
def doc(document: dict[str, Any]) -> Any:
    with ethos_py.Document.from_bytes(json.dumps(document).encode(), name="loan.json") as opened:
        yield opened


def claim(kind: str, text: str | None, **citation: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "citation": citation}
    if text is not None:
        out["text"] = text
    return out


def requests_for(fingerprint: str) -> list[Any]:
    """Requests of every shape: envelope and bare array, grounded, mismatched, stale, unpinned."""
    return [
        {"document_fingerprint": fingerprint, "claims": [claim("quote", "4.1% fixed", element_id="e000002")]},
        {"document_fingerprint": fingerprint, "claims": [claim("quote", "4.2% fixed", element_id="e000002"),
                                                          claim("presence", None, page="p0002")]},
        [claim("quote", "Repayment starts", page="p0002")],
        {"document_fingerprint": "sha256:" + "1" * 64, "claims": [claim("quote", "Loan terms", element_id="e000001")]},
        {"document_fingerprint": fingerprint, "claims": [claim("region", None, page="p0001"),
                                                          claim("value", "Loan terms", element_id="e000001")]},
        {"document_fingerprint": fingerprint, "claims": [claim("quote", "five years. After that", element_id="e000002")]},
    ]


def ndjson(requests: list[Any]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in requests)


# -- NDJSON output: line i is exactly verify(request i) ---------------------------------------------


@pytest.mark.parametrize("options", [{}, {"statement": True}, {"policy": "strict"}, {"policy": "permissive"}])
def test_each_line_is_the_single_verify_report(doc: Any, document: dict[str, Any], options: dict[str, Any]) -> None:
    requests = requests_for(document["fingerprint"])
    single = [doc.verify_json(r, **options) for r in requests]
    output = doc.verify_batch_json(requests, **options)
    assert output == b"".join(report + b"\n" for report in single)
    assert doc.verify_batch(requests, **options) == [json.loads(r) for r in single]


def test_config_applies_to_every_line(doc: Any, document: dict[str, Any], repo_dir: Path) -> None:
    config = json.loads((repo_dir / "schemas/examples/verification-config.hardened.example.json").read_text())
    requests = requests_for(document["fingerprint"])
    assert doc.verify_batch_json(requests, config) == b"".join(doc.verify_json(r, config) + b"\n" for r in requests)


def test_input_forms_and_final_newline(doc: Any, document: dict[str, Any], tmp_path: Path) -> None:
    requests = requests_for(document["fingerprint"])
    expected = doc.verify_batch_json(requests)
    data = ndjson(requests)
    assert doc.verify_batch_json(data) == expected
    assert doc.verify_batch_json(data[:-1]) == expected  # the last newline is optional
    assert doc.verify_batch_json(data.replace(b"\n", b"\r\n")) == expected  # CR is JSON whitespace
    path = tmp_path / "batch.ndjson"
    path.write_bytes(data)
    assert doc.verify_batch_json(path) == expected
    assert doc.verify_batch_json([json.dumps(r) for r in requests]) == expected
    assert ethos_py.verify_batch(doc, requests) == [json.loads(line) for line in expected.splitlines()]
    with pytest.raises(ValueError):
        doc.verify_batch_json(['{"claims":\n[]}'])
    assert doc.verify_batch_json(data.decode()) == expected  # a str starting with { is NDJSON text
    assert doc.verify_batch_json(str(path)) == expected  # ... any other str is a path


def test_many_lines_use_both_threads_and_stay_in_order(doc: Any, document: dict[str, Any]) -> None:
    requests = requests_for(document["fingerprint"]) * 50  # 300 lines: the parallel path
    requests += [{"document_fingerprint": document["fingerprint"],
                  "claims": [claim("quote", f"missing {i}", element_id="e000003")]} for i in range(40)]
    output = doc.verify_batch_json(requests)
    assert output == b"".join(doc.verify_json(r) + b"\n" for r in requests)


def test_many_distinct_claim_texts_match_single_calls(doc: Any, document: dict[str, Any]) -> None:
    # Past 64 claim texts a worker writes new texts into the ladders of earlier ones: texts
    # longer and shorter than the one before, found exactly, at looser tiers, or missed.
    text = "The rate is 4.1% fixed for the first five years."
    quotes = [text[i:j] for i in range(0, 20, 3) for j in range(len(text), 25, -4)]
    quotes += [q.upper() for q in quotes[::3]] + [q.replace(" ", "  ") for q in quotes[1::3]]
    quotes += [q.replace("fixed", "fixd") for q in quotes[::2]]
    assert len(set(quotes)) > 80
    requests = [{"document_fingerprint": document["fingerprint"], "claims": [claim("quote", q, element_id="e000002")]}
                for q in quotes * 2]
    output = doc.verify_batch_json(requests)
    assert output == b"".join(doc.verify_json(r) + b"\n" for r in requests)


def test_large_output_is_copied_whole_and_in_order(doc: Any, document: dict[str, Any]) -> None:
    # Well over the 8 MiB from which the core copies the workers' blocks into the returned buffer
    # on two threads: every line's report must land once, in order, with the length returned.
    requests = requests_for(document["fingerprint"]) * 1500
    output = doc.verify_batch_json(requests)
    assert len(output) > 8 << 20
    assert output == b"".join(doc.verify_json(r) + b"\n" for r in requests)


def test_blocks_larger_than_a_store_chunk_stay_whole_and_in_order(doc: Any, document: dict[str, Any]) -> None:
    # Each worker writes its blocks of 64 lines straight into large chunks, the first 1 MiB: a
    # block of lines with 60 claims each is larger, so the chunk it is written into grows (and may
    # move) under blocks already written there, which must still come back whole and in order.
    fingerprint = document["fingerprint"]
    small = requests_for(fingerprint) * 50
    large = {"document_fingerprint": fingerprint,
             "claims": [claim("quote", "4.1% fixed", element_id="e000002"),
                        claim("quote", "five years. After that", element_id="e000002")] * 30}
    requests = small + [large] * 130 + small
    output = doc.verify_batch_json(requests)
    assert len(output) > 4 << 20
    assert output == b"".join(doc.verify_json(r) + b"\n" for r in requests)


def test_batches_on_one_document_reuse_output_memory_without_old_bytes(document: dict[str, Any]) -> None:
    # The document keeps its batches' output chunks for the next batch (core/chunk_pool.hpp): a
    # large batch, then a small one written into the large one's chunks, then a large one with
    # other claims must each be exactly their single calls' reports - no byte of an earlier batch
    # may show through. A fresh document, so the first batch starts from an empty pool.
    fingerprint = document["fingerprint"]
    first = requests_for(fingerprint) * 900
    other = {"document_fingerprint": fingerprint,
             "claims": [claim("quote", "five years. After that", element_id="e000002")]}
    with ethos_py.Document.from_bytes(dumps(document), name="loan.json") as fresh:
        for requests in (first, requests_for(fingerprint)[:2], [other] * 2500, first):
            output = fresh.verify_batch_json(requests)
            assert output == b"".join(fresh.verify_json(r) + b"\n" for r in requests)


def test_sized_batch_call_gives_the_length_and_the_same_bytes(doc: Any, document: dict[str, Any]) -> None:
    from ethos_py import _ffi

    data = b"".join(json.dumps(r).encode() + b"\n" for r in requests_for(document["fingerprint"]) * 20)
    handle = doc._live_handle()
    plain = _ffi.call_string(_ffi.lib.ethos_verify_batch, handle, data, len(data), _ffi.ffi.NULL, 0, _ffi.ffi.NULL, 0)
    out = _ffi.ffi.new("char **")
    out_len = _ffi.ffi.new("size_t *", 12345)
    status = _ffi.lib.ethos_verify_batch_sized(handle, data, len(data), _ffi.ffi.NULL, 0, _ffi.ffi.NULL, 0, out, out_len)
    try:
        assert status == _ffi.lib.ETHOS_OK
        assert out_len[0] == len(plain)
        assert _ffi.ffi.unpack(out[0], out_len[0]) == plain
        assert _ffi.ffi.string(out[0]) == plain  # still NUL-terminated
    finally:
        _ffi.lib.ethos_string_free(out[0])
    # A failure: the envelope as usual, length 0; a NULL out_len is allowed.
    bad = data + b"{\n"
    status = _ffi.lib.ethos_verify_batch_sized(handle, bad, len(bad), _ffi.ffi.NULL, 0, _ffi.ffi.NULL, 0, out, out_len)
    try:
        assert status == _ffi.lib.ETHOS_ERROR
        assert out_len[0] == 0
        envelope = json.loads(_ffi.ffi.string(out[0]))
        assert envelope["error"]["code"] == "invalid_input" and envelope["error"]["details"]["line"] == 121
    finally:
        _ffi.lib.ethos_string_free(out[0])
    status = _ffi.lib.ethos_verify_batch_sized(handle, data, len(data), _ffi.ffi.NULL, 0, _ffi.ffi.NULL, 0, out, _ffi.ffi.NULL)
    try:
        assert status == _ffi.lib.ETHOS_OK and _ffi.ffi.string(out[0]) == plain
    finally:
        _ffi.lib.ethos_string_free(out[0])


def test_batch_output_is_copied_once_into_the_callers_buffer(doc: Any, document: dict[str, Any]) -> None:
    from ethos_py import _ffi

    ffi, lib = _ffi.ffi, _ffi.lib
    data = b"".join(json.dumps(r).encode() + b"\n" for r in requests_for(document["fingerprint"]) * 20)
    handle = doc._live_handle()
    plain = _ffi.call_string(lib.ethos_verify_batch, handle, data, len(data), ffi.NULL, 0, ffi.NULL, 0)
    out_output = ffi.new("ethos_batch_output **")
    out_len = ffi.new("size_t *", 12345)
    out_error = ffi.new("char **")

    def envelope() -> dict[str, Any]:
        try:
            return cast(dict[str, Any], json.loads(ffi.string(out_error[0])))
        finally:
            lib.ethos_string_free(out_error[0])

    status = lib.ethos_verify_batch_output(handle, data, len(data), ffi.NULL, 0, ffi.NULL, 0, out_output, out_len, out_error)
    assert status == lib.ETHOS_OK and out_error[0] == ffi.NULL and out_len[0] == len(plain)
    held = out_output[0]
    try:
        # A wrong length is refused and leaves the output to copy.
        short = ffi.new("char[]", len(plain) - 1)
        assert lib.ethos_batch_output_copy(held, short, len(plain) - 1, out_error) == lib.ETHOS_ERROR
        assert envelope()["error"]["details"] == {"argument": "dest_len"}
        dest = ffi.new("char[]", len(plain))
        assert lib.ethos_batch_output_copy(held, dest, len(plain), out_error) == lib.ETHOS_OK
        assert ffi.buffer(dest, len(plain))[:] == plain
        # Copied once only: the library's copy is gone.
        assert lib.ethos_batch_output_copy(held, dest, len(plain), out_error) == lib.ETHOS_ERROR
        assert envelope()["error"]["details"] == {"argument": "output"}
    finally:
        lib.ethos_batch_output_free(held)
    lib.ethos_batch_output_free(ffi.NULL)
    # A failure: the envelope names the line; no output, length 0.
    bad = data + b"{\n"
    status = lib.ethos_verify_batch_output(handle, bad, len(bad), ffi.NULL, 0, ffi.NULL, 0, out_output, out_len, out_error)
    assert status == lib.ETHOS_ERROR and out_output[0] == ffi.NULL and out_len[0] == 0
    error = envelope()["error"]
    assert error["code"] == "invalid_input" and error["details"]["line"] == 121


# -- merged -------------------------------------------------------------------------------------------


def test_merged_is_the_report_of_all_claims_in_one_request(doc: Any, document: dict[str, Any]) -> None:
    from conftest import schema_errors

    fingerprint = document["fingerprint"]
    requests = [r for r in requests_for(fingerprint) if isinstance(r, dict) and r["document_fingerprint"] == fingerprint]
    merged = doc.verify_batch(requests, merged=True)
    claims = [c for r in requests for c in r["claims"]]
    assert merged == doc.verify({"document_fingerprint": fingerprint, "claims": claims})
    assert [c["id"] for c in merged["checks"]] == [f"v{i:04d}" for i in range(1, len(claims) + 1)]
    assert schema_errors("verification-report", merged) == []
    statement = doc.verify_batch(requests, merged=True, statement=True)
    assert statement["predicate"] == merged and statement["subject"][0]["name"] == "loan.json"


def test_merged_unpinned_lines_agree(doc: Any) -> None:
    requests = [[claim("quote", "Loan", element_id="e000001")], {"claims": [claim("quote", "May", page="p0002")]}]
    merged = doc.verify_batch(requests, merged=True)
    assert "document_fingerprint" in merged  # the source's, the report always names it
    assert [c["status"] for c in merged["checks"]] == ["stale", "stale"]  # unpinned: missing_citation_fingerprint


def test_merged_check_ids_past_four_digits(doc: Any) -> None:
    # Check ids are zero-padded to four digits and grow past them: v0001 ... v9999, v10000, ...
    line = json.dumps([claim("presence", None, page="p0001")] * 10)
    merged = doc.verify_batch([line] * 1002, merged=True)
    ids = [check["id"] for check in merged["checks"]]
    assert ids[:2] == ["v0001", "v0002"] and ids[9998:10001] == ["v9999", "v10000", "v10001"]
    assert ids == [f"v{i:04d}" for i in range(1, 10021)]


@pytest.mark.parametrize("line", [2, 3])
def test_merged_lines_must_pin_the_same_fingerprint(doc: Any, document: dict[str, Any], line: int) -> None:
    pinned = {"document_fingerprint": document["fingerprint"], "claims": [claim("quote", "Loan", element_id="e000001")]}
    other = {"document_fingerprint": "sha256:" + "2" * 64, "claims": [claim("quote", "Loan", element_id="e000001")]}
    unpinned = [claim("quote", "Loan", element_id="e000001")]
    requests = [pinned, pinned, pinned]
    requests[line - 1] = other if line == 2 else unpinned
    with pytest.raises(EthosError) as caught:
        doc.verify_batch_json(requests, merged=True)
    assert caught.value.error_code == "source_mismatch"
    assert caught.value.exit_code == 2
    assert caught.value.details == {"line": line, "path": "$.document_fingerprint"}
    # Without --merged the same lines are fine: each report stands for itself.
    assert len(doc.verify_batch(requests)) == 3


# -- a bad line fails the whole batch, naming the line ---------------------------------------------


BAD_LINES = [
    (b'{"claims":[]}', "invalid_input", {"path": "$.claims"}),
    (b'[{"kind":"quote","citation":{"page":"p0001"}}]', "invalid_input", {"path": "$[0].text"}),
    (b'[{"kind":"quote","text":"x","citation":{}}]', "invalid_input", {"path": "$[0].citation"}),
    (b'{"claims":[{"kind":"quote","text":"x","citation":{"page":"p0001"}}],"extra":1}', "invalid_input", {"path": "$.extra"}),
    (b'{"claims":[', "invalid_input", {"input": "citations"}),
    (b"", "invalid_input", {"input": "citations"}),
    (b'{"document_fingerprint":"sha256:XYZ","claims":[{"kind":"presence","citation":{"page":"p0001"}}]}', "invalid_input",
     {"path": "$.document_fingerprint"}),
    # The paths of a claim and its citation are spelled out only for an error: each still names
    # its claim's index and the field.
    (b'{"claims":[{"kind":"presence","citation":{"page":"p0001"}},{"kind":"presence","citation":{"page":"p0001","x":1}}]}',
     "invalid_input", {"path": "$.claims[1].citation.x"}),
    (b'{"claims":[{"kind":"presence","citation":{"page":"p0001"}},{"kind":"presence","citation":[]}]}', "invalid_input",
     {"path": "$.claims[1].citation"}),
    (b'[{"kind":"presence","citation":{"page":"p0001"}},{"kind":"presence","citation":{"page_end":"p0002","element_id":"e"}}]',
     "invalid_input", {"path": "$[1].citation.page_end"}),
    (b'[{"kind":"table_cell","text":"x","citation":{"table_id":"t","cell":{"row":-1,"col":0}}}]', "invalid_input",
     {"path": "$[0].citation.cell.row"}),
    (b'[{"kind":"presence","citation":{"page":"p0001"}},{"kind":"guess","citation":{"page":"p0001"}}]', "invalid_input",
     {"path": "$[1].kind"}),
    (b'[{"kind":"presence","citation":{"page":"p0001"},"note":1}]', "invalid_input", {"path": "$[0].note"}),
    (b'[{"kind":"presence","citation":{"page":"p0001"}},{"kind":"value","text":" ","citation":{"page":"p0001"}}]',
     "invalid_input", {"path": "$[1].text"}),
]


def test_claims_hash_and_echoes_are_canonical(doc: Any) -> None:
    # A line's claims are written canonically one after another into one buffer that is hashed
    # once; each claim's echo is its part of that text. Members out of order, escapes and
    # non-ASCII text must come out as Python's canonical dumps of the same claims.
    claims = [
        {"text": 'He said "yes"\t\u00e9\u4e2d', "kind": "quote", "citation": {"page": "p0001", "element_id": "e000001"}},
        {"citation": {"page": "p0001"}, "kind": "presence"},
        {"kind": "value", "citation": {"bbox": [1, 2, 30, 40], "page": "p0001"}, "text": "a\nb"},
    ]
    raw = ('{"claims":[' + ",".join(json.dumps(item, ensure_ascii=True) for item in claims) + ']}').encode()
    line = raw + b"\n" + raw.replace(b'"claims":[', b'"claims":[' + dumps(claims[1]) + b",", 1)
    reports = [json.loads(text) for text in doc.verify_batch_json(line).splitlines()]
    for report, expected in zip(reports, [claims, [claims[1], *claims]]):
        assert report["attestation"]["claims_sha256"] == hashlib.sha256(dumps(expected)).hexdigest()
        assert [check["claim"] for check in report["checks"]] == json.loads(dumps(expected))
        assert [dumps(check["claim"]) for check in report["checks"]] == [dumps(item) for item in expected]


@pytest.mark.parametrize(("bad", "code", "details"), BAD_LINES)
@pytest.mark.parametrize("position", [0, 2])
def test_bad_line_fails_the_batch(doc: Any, document: dict[str, Any], bad: bytes, code: str, details: dict[str, Any], position: int) -> None:
    lines = [json.dumps(r).encode() for r in requests_for(document["fingerprint"])[:3]]
    lines.insert(position, bad)
    for merged in (False, True):
        with pytest.raises(EthosError) as caught:
            doc.verify_batch_json(b"\n".join(lines) + b"\n", merged=merged)
        assert caught.value.error_code == code
        assert caught.value.details["line"] == position + 1
        for key, value in details.items():
            assert caught.value.details[key] == value


@pytest.mark.parametrize("positions", [(130, 200), (260, 5), (64, 63)])
def test_first_bad_line_of_a_large_batch_is_named(doc: Any, document: dict[str, Any], positions: tuple[int, int]) -> None:
    # 300 lines are read on two threads, block by block: whichever thread meets a bad line first,
    # the error names the first one in input order.
    lines = [json.dumps(r).encode() for r in requests_for(document["fingerprint"]) * 50]
    for position, bad in zip(positions, (BAD_LINES[1][0], BAD_LINES[4][0])):
        lines[position] = bad
    first = min(positions)
    with pytest.raises(EthosError) as caught:
        doc.verify_batch_json(b"\n".join(lines) + b"\n")
    assert caught.value.error_code == "invalid_input"
    assert caught.value.details["line"] == first + 1
    if first == positions[0]:  # the claim without text
        assert caught.value.details == {"line": first + 1, "path": "$[0].text"}
    else:  # the line cut short
        assert caught.value.details["input"] == "citations"


def test_per_line_limit(doc: Any, document: dict[str, Any]) -> None:
    config = {"schema_version": "1.0.0", "config_version": "small", "claim_kinds": ["quote", "presence"],
              "matching": {"text_normalization": "collapse_whitespace", "case_sensitive": True},
              "staleness": {"require_fingerprint_match": False}, "limits": {"max_checks": 2}}
    two = [claim("presence", None, page="p0001")] * 2
    # The limit is per line: three lines of two claims pass, also merged (six checks).
    assert len(doc.verify_batch([two, two, two], config, merged=True)["checks"]) == 6
    with pytest.raises(EthosError) as caught:
        doc.verify_batch_json([two, two + two[:1]], config)
    assert caught.value.error_code == "input_limit_exceeded" and caught.value.details["line"] == 2


def test_empty_batch_is_invalid(doc: Any) -> None:
    for data in (b"",):
        with pytest.raises(EthosError) as caught:
            doc.verify_batch_json(data)
        assert caught.value.error_code == "invalid_input"
        assert "line" not in caught.value.details
    with pytest.raises(EthosError) as caught:
        doc.verify_batch_json(b"\n")  # one empty line: a request that is not JSON
    assert caught.value.details["line"] == 1


def test_unknown_option_is_rejected(doc: Any) -> None:
    from ethos_py import _ffi

    data = b'[{"kind":"presence","citation":{"page":"p0001"}}]\n'
    options = b'{"merged":true,"bogus":1}'
    with pytest.raises(EthosError) as caught:
        _ffi.call_string(_ffi.lib.ethos_verify_batch, doc._live_handle(), data, len(data), _ffi.ffi.NULL, 0, options, len(options))
    assert caught.value.error_code == "invalid_input"
    # verify itself does not take the batch option.
    with pytest.raises(EthosError):
        _ffi.call_string(_ffi.lib.ethos_verify, doc._live_handle(), data[:-1], len(data) - 1, _ffi.ffi.NULL, 0, b'{"merged":true}', 15)


# -- threads: one shared Document, verify and verify_batch at once ---------------------------------


def test_threads_share_one_document(doc: Any, document: dict[str, Any]) -> None:
    requests = requests_for(document["fingerprint"]) * 20
    expected_single = [doc.verify_json(r) for r in requests[:6]]
    expected_batch = doc.verify_batch_json(requests)
    expected_merged = doc.verify_batch_json([r for r in requests if isinstance(r, dict)][:1] * 30, merged=True)
    failures: list[str] = []
    barrier = threading.Barrier(6)

    def single() -> None:
        barrier.wait()
        for _ in range(30):
            if [doc.verify_json(r) for r in requests[:6]] != expected_single:
                failures.append("verify")

    def batch() -> None:
        barrier.wait()
        for _ in range(5):
            if doc.verify_batch_json(requests) != expected_batch:
                failures.append("verify_batch")

    def merged() -> None:
        barrier.wait()
        for _ in range(10):
            if doc.verify_batch_json([r for r in requests if isinstance(r, dict)][:1] * 30, merged=True) != expected_merged:
                failures.append("merged")

    threads = [threading.Thread(target=f) for f in (single, single, batch, batch, merged, merged)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


# -- the CLIs and EthosCli -----------------------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path, document: dict[str, Any]) -> dict[str, Path]:
    source = tmp_path / "doc.json"
    source.write_text(json.dumps(document))
    batch = tmp_path / "batch.ndjson"
    batch.write_bytes(ndjson(requests_for(document["fingerprint"])))
    pinned = tmp_path / "pinned.ndjson"
    pinned.write_bytes(ndjson([r for r in requests_for(document["fingerprint"])
                               if isinstance(r, dict) and r["document_fingerprint"] == document["fingerprint"]]))
    return {"source": source, "batch": batch, "pinned": pinned}


def core_cli() -> EthosCli:
    import harness

    return EthosCli(harness.ethos_core_binary())


@pytest.mark.parametrize(("name", "flags"), [("batch", []), ("batch", ["--statement"]), ("batch", ["--policy", "strict"]),
                                             ("pinned", ["--merged"]), ("pinned", ["--merged", "--statement"])])
def test_three_surfaces_give_identical_bytes(files: dict[str, Path], tmp_path: Path, name: str, flags: list[str]) -> None:
    from test_cli_errors import run

    merged, statement = "--merged" in flags, "--statement" in flags
    policy = "strict" if "strict" in flags else None
    with ethos_py.Document.open(files["source"]) as opened:
        expected = opened.verify_batch_json(files[name], merged=merged, statement=statement, policy=policy)
    expected += b"\n" if merged else b""
    for program in ("ethos", "ethos-core"):
        result = run(program, ["verify-batch", files["source"], "--citations-ndjson", files[name], *flags])
        assert (result.returncode, result.stdout, result.stderr) == (0, expected, b""), program
        out = tmp_path / f"{program}.out"
        written = run(program, ["verify-batch", files["source"], "--citations-ndjson", files[name], *flags, "--out", out])
        assert (written.returncode, written.stdout, written.stderr) == (0, b"", b"")
        assert out.read_bytes() == expected
    if not policy:
        assert core_cli().verify_batch_bytes(files["source"], files[name], merged=merged, statement=statement) == expected


def test_cli_bad_line_writes_nothing(files: dict[str, Path], tmp_path: Path) -> None:
    from test_cli_errors import run

    bad = tmp_path / "bad.ndjson"
    bad.write_bytes(files["batch"].read_bytes() + b'[{"kind":"value","citation":{"page":"p0001"}}]\n')
    out = tmp_path / "out.ndjson"
    out.write_bytes(b"previous")
    results = [run(p, ["verify-batch", files["source"], "--citations-ndjson", bad, "--out", out]) for p in ("ethos", "ethos-core")]
    for result in results:
        assert result.returncode == 2 and result.stdout == b""
        assert result.envelope()["details"] == {"line": 7, "path": "$[0].text"}
    assert results[0].stderr == results[1].stderr
    assert out.read_bytes() == b"previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["bad.ndjson", "out.ndjson", "doc.json", "batch.ndjson", "pinned.ndjson"])


def test_cli_merged_fingerprint_disagreement(files: dict[str, Path]) -> None:
    from test_cli_errors import assert_failure

    assert_failure(["verify-batch", files["source"], "--citations-ndjson", files["batch"], "--merged"], "source_mismatch", 2,
                   details={"line": 3, "path": "$.document_fingerprint"})


def test_cli_fail_on_ungrounded(files: dict[str, Path], document: dict[str, Any], tmp_path: Path) -> None:
    from test_cli_errors import run

    grounded = tmp_path / "grounded.ndjson"
    grounded.write_bytes(ndjson(requests_for(document["fingerprint"])[:1] * 2))
    for program in ("ethos", "ethos-core"):
        ok = run(program, ["verify-batch", files["source"], "--citations-ndjson", grounded, "--fail-on-ungrounded"])
        assert ok.returncode == 0
        for flags in ([], ["--merged"]):
            source_file = files["batch"] if not flags else files["pinned"]
            result = run(program, ["verify-batch", files["source"], "--citations-ndjson", source_file, "--fail-on-ungrounded", *flags])
            assert result.returncode == 1 and result.stdout and result.stderr == b"", program
            assert run(program, ["verify-batch", files["source"], "--citations-ndjson", source_file, *flags]).returncode == 0


def test_cli_argument_and_host_errors(files: dict[str, Path], tmp_path: Path) -> None:
    from test_cli_errors import assert_failure, run

    assert_failure(["verify-batch", files["source"], "--citations-ndjson", tmp_path / "none.ndjson"], "host_io", 2,
                   details={"argument": "--citations-ndjson", "path": str(tmp_path / "none.ndjson"), "reason": "not_found"})
    assert_failure(["verify-batch", files["source"]], "invalid_arguments", 2, identical=False)
    assert_failure(["verify-batch", files["source"], "--citations-ndjson", files["batch"], "--merged=yes"], "invalid_arguments", 2,
                   identical=False)
    for program in ("ethos", "ethos-core"):
        help_text = b" ".join(run(program, ["verify-batch", "--help"]).stdout.split())
        assert b"--citations-ndjson" in help_text and b"--merged" in help_text and b"exit 0" in help_text, program


def test_wrapper_verify_batch(files: dict[str, Path], tmp_path: Path) -> None:
    cli = core_cli()
    reports = cli.verify_batch(files["source"], files["batch"])
    with ethos_py.Document.open(files["source"]) as opened:
        assert reports == opened.verify_batch(files["batch"])
        assert cli.verify_batch(files["source"], files["pinned"], merged=True) == opened.verify_batch(files["pinned"], merged=True)
    assert len(cli.verify_batch(files["source"], files["batch"], fail_on_ungrounded=True)) == 6
    with pytest.raises(FileNotFoundError):
        cli.verify_batch(files["source"], tmp_path / "none.ndjson")
    with pytest.raises(EthosCommandError) as caught:
        cli.verify_batch(files["source"], files["batch"], merged=True)
    assert caught.value.error_code == "source_mismatch"
    with pytest.raises(EthosCommandError) as caught:
        cli.verify_batch(files["source"], files["batch"], fail_on_ungrounded=False, merged=False, config=files["batch"])
    assert caught.value.error_code == "invalid_input"

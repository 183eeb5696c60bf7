"""test_matching - the matching ladder: shared vectors through an independent reference and the
library, policies (presets, files, config.matching.policy), explain, and the three surfaces."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import harness
import pytest
from conftest import SCHEMAS_DIR, TOOLS_DIR, schema_errors

sys.path.insert(0, str(TOOLS_DIR))
import make_native_document as tool

VECTORS = json.loads((SCHEMAS_DIR / "matching-vectors.json").read_text(encoding="utf-8"))
SOURCES = harness.SOURCES_DIR

# ------------------------------------------------------------------------------------------ reference
# An independent reading of docs/matching.md in Python (unicodedata, str.lower), not a port.

WHITE_SPACE = set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)
}
DELETED = set("\u00ad\u200b\u2060\ufeff")
FOLDS = {
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u2039\u203a\u02bc", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63", "-"),
    "\u2026": "...",
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}


def is_cjk(ch: str) -> bool:
    c = ord(ch)
    ideograph_or_kana = (
        0x3040 <= c <= 0x30FF
        or 0x31F0 <= c <= 0x31FF
        or 0x3400 <= c <= 0x4DBF
        or 0x4E00 <= c <= 0x9FFF
        or 0xF900 <= c <= 0xFAFF
        or 0xFF66 <= c <= 0xFF9F
        or 0x20000 <= c <= 0x3FFFF
    )
    return ideograph_or_kana or 0x3000 <= c <= 0x303F or 0xFF5F <= c <= 0xFF65 or ch in "\uff01\uff0c\uff0e\uff1a\uff1b\uff1f"


def is_cjk_punct(ch: str) -> bool:
    c = ord(ch)
    return 0x3001 <= c <= 0x303F or 0xFF5F <= c <= 0xFF65 or ch in "\uff01\uff08\uff09\uff0c\uff0e\uff1a\uff1b\uff1f\uff3b\uff3d\uff5b\uff5d"


def ref_whitespace(text: str) -> str:
    out: list[str] = []
    pending = False
    for ch in text:
        if ch in WHITE_SPACE:
            pending = True
            continue
        if pending and out and not ((is_cjk(out[-1]) and is_cjk(ch)) or is_cjk_punct(out[-1]) or is_cjk_punct(ch)):
            out.append(" ")
        pending = False
        out.append(ch)
    return "".join(out)


#: TeX's spacing accents: set above a letter they precede it; set below (cedilla, ogonek) they precede a
#: lowercase letter and follow a taller one.
ACCENTS_ABOVE = "\u00b4`\u00a8\u02c6\u02dc\u00af\u02c9\u02d8\u02d9\u02da\u02dd\u02c7"
ACCENTS_BELOW = "\u00b8\u02db"
DOTLESS = {"\u0131": "i", "\u0237": "j"}


def combining_mark(accent: str) -> str:
    """The combining mark a spacing accent stands for, found by its Unicode name."""
    name = unicodedata.name(accent).removeprefix("MODIFIER LETTER ").removeprefix("SMALL ")
    return unicodedata.lookup("COMBINING " + name)


def accented(letter: str, accent: str) -> str | None:
    """The letter with the accent's mark when the two compose to one character under NFC."""
    composed = unicodedata.normalize("NFC", DOTLESS.get(letter, letter) + combining_mark(accent))
    return composed if len(composed) == 1 else None


def grave_is_accent(before: str, after2: str) -> bool:
    """A backtick is a grave accent after a letter or on a one-letter word, never beside another,
    after a backslash (TeX's command) or before a letter a backtick or apostrophe closes."""
    def word(ch: str) -> bool:
        return bool(ch) and unicodedata.category(ch)[0] in "LMN"
    if before in ("`", "\\") or after2 in ("`", "'"):
        return False
    return (word(before) and unicodedata.category(before) != "Nd") or not word(after2)


def ref_spacing_accents(text: str) -> str:
    out: list[str] = []
    plain = False  # the last output is the text's own previous character
    i = 0
    while i < len(text):
        ch = text[i]
        before = text[i - 1] if i else ""
        after = text[i + 1] if i + 1 < len(text) else ""
        # A dotless i or j under a combining accent above is the i or j with it.
        if ch in DOTLESS and after and after in {combining_mark(a) for a in ACCENTS_ABOVE}:
            out.append(DOTLESS[ch])
            plain, i = False, i + 1
            continue
        # A cedilla or ogonek goes on a following lowercase ASCII letter (TeX's \accent, x-height
        # letters), else on the letter before it (TeX's \ooalign, taller letters).
        below_on_next = ch in ACCENTS_BELOW and "a" <= after <= "z" and accented(after, ch) is not None
        if below_on_next:
            out.append(accented(after, ch) or "")
            plain, i = False, i + 2
            continue
        if plain and (ch in ACCENTS_BELOW or (ch in ACCENTS_ABOVE and ch != "`" and before in DOTLESS)):
            letter = accented(before, ch)
            if letter:
                out[-1], plain, i = letter, False, i + 1
                continue
        if ch in ACCENTS_ABOVE and i + 1 < len(text):
            letter = accented(text[i + 1], ch)
            if letter and (ch != "`" or grave_is_accent(before, text[i + 2] if i + 2 < len(text) else "")):
                out.append(letter)
                plain, i = False, i + 2
                continue
        out.append(ch)
        plain, i = True, i + 1
    return "".join(out)


def _beside_cjk_punct(text: str, i: int) -> bool:
    """Whether the white-space run holding text[i] touches CJK punctuation on either side."""
    before, after = i, i
    while before > 0 and text[before - 1] in WHITE_SPACE:
        before -= 1
    while after < len(text) and text[after] in WHITE_SPACE:
        after += 1
    return (before > 0 and is_cjk_punct(text[before - 1])) or (after < len(text) and is_cjk_punct(text[after]))


def ref_typography(text: str) -> str:
    folded = []
    text = ref_spacing_accents(text)
    # "--" and "---" typed for en and em dashes are one dash; longer hyphen runs stay.
    text = re.sub(r"(?<!-)-{2,3}(?!-)", "-", text)
    # White space beside CJK punctuation goes before full-width punctuation folds to ASCII.
    space = "[" + "".join(sorted(WHITE_SPACE)) + "]"
    text = "".join(ch for i, ch in enumerate(text)
                   if not (ch in WHITE_SPACE and _beside_cjk_punct(text, i)))
    # TeX's spaced ellipsis ". . ." reads as "...".
    text = re.sub(r"\." + space + r"\." + space + r"\.", "...", text)
    for ch in text:
        if ch in DELETED:
            continue
        if 0xFF01 <= ord(ch) <= 0xFF5E:
            ch = chr(ord(ch) - 0xFEE0)
        ch = FOLDS.get(ch, ch)
        # A double quotation mark stands between spaces of its own (then collapsed and trimmed).
        folded.append(" \" " if ch == '"' else ch)
    return ref_whitespace(unicodedata.normalize("NFC", "".join(folded)))


def ref_skeleton(text: str) -> str:
    words, current = [], []
    for ch in text:
        if unicodedata.category(ch)[0] in "LMN":
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return " ".join(words)


def ref_tier(text: str, tier: str) -> str:
    if tier == "exact":
        return text
    if tier == "whitespace":
        return ref_whitespace(text)
    typography = ref_typography(text)
    if tier == "typography":
        return typography
    if tier == "case":
        return typography.lower()
    return ref_skeleton(typography.lower())


@pytest.mark.parametrize("vector", VECTORS["tier_vectors"], ids=lambda v: v["name"])
def test_tier_vector_agrees_with_the_reference(vector: dict[str, Any]) -> None:
    assert ref_tier(vector["input"], vector["tier"]) == vector["expected"]


# ------------------------------------------------------------------------------------------ library


def _document_for(texts: list[str]) -> bytes:
    """A one-page native document with one text element per text (e000001, ...)."""
    elements = [
        {"bbox": [7200, 6000 + 2000 * i, 54000, 7400 + 2000 * i], "id": f"e{i + 1:06d}", "page": "p0001",
         "text": text, "type": "text_block"}
        for i, text in enumerate(texts)
    ]
    payload = {"pages": [{"height": 79200, "id": "p0001", "index": 1, "rotation": 0, "width": 61200}],
               "elements": elements}
    return tool.render(tool.build_document(payload))


@pytest.fixture(scope="module")
def vector_report() -> dict[str, dict[str, Any]]:
    """Every search vector verified through the library, one check per vector, by policy. Each
    vector is a document of its own: a quote refused in its text but found in another vector's
    would be reported as located elsewhere, which the vectors do not describe."""
    import ethos_py

    vectors = VECTORS["search_vectors"]
    policies = ("strict", "default", "permissive")
    reports: dict[str, dict[str, Any]] = {policy: {"checks": [], "reports": []} for policy in policies}
    for vector in vectors:
        with ethos_py.Document.from_bytes(_document_for([vector["text"]])) as document:
            claims = [{"kind": vector["kind"], "text": vector["quote"], "citation": {"element_id": "e000001"}}]
            citations = {"document_fingerprint": document.fingerprint, "claims": claims}
            for policy, collected in reports.items():
                report = json.loads(document.verify_json(citations, policy=policy))
                collected["checks"].append(report["checks"][0])
                collected["reports"].append(report)
    return reports


@pytest.mark.parametrize("index", range(len(VECTORS["search_vectors"])), ids=lambda i: VECTORS["search_vectors"][i]["name"])
def test_search_vector_through_the_library(index: int, vector_report: dict[str, dict[str, Any]]) -> None:
    vector = VECTORS["search_vectors"][index]
    report = vector_report[vector["policy"]]
    check = report["checks"][index]
    if vector["status"] == "grounded":
        assert check["status"] == "grounded"
    else:
        assert (check["status"], check["reason"]) == ("mismatch", vector["status"])
    if vector["tier"] is None:
        assert "match" not in check
        return
    match = check["match"]
    assert (match["tier"], match["start"], match["end"]) == (vector["tier"], vector["start"], vector["end"])
    assert match["sound"] == (vector["tier"] != "skeleton")
    assert match["source_text"] == vector["text"][vector["start"] : vector["end"]]
    assert match["boxes"] == []


def test_vector_reports_follow_the_schema(vector_report: dict[str, dict[str, Any]]) -> None:
    for collected in vector_report.values():
        for report in collected["reports"]:
            assert schema_errors("verification-report", report) == []


# ------------------------------------------------------------------------------------------ policies


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _c14n(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()


def _explain(policy: str | bytes) -> dict[str, Any]:
    from ethos_py.document import explain_policy_json

    return json.loads(explain_policy_json(policy))


@pytest.mark.parametrize("name,accept", [("strict", "whitespace"), ("default", "case"), ("permissive", "skeleton")])
def test_presets_are_valid_policies_with_their_fingerprints(name: str, accept: str) -> None:
    explained = _explain(name)
    policy = explained["policy"]
    assert schema_errors("policy", policy) == []
    assert (policy["name"], policy["accept_up_to"]) == (name, accept)
    assert policy["tiers"] == ["exact", "whitespace", "typography", "case", "skeleton"]
    assert explained["policy_fingerprint"] == "sha256:" + _sha256(_c14n(policy))
    assert explained["unicode_version"] == unicodedata.unidata_version
    accepted = [line for line in explained["assumptions"] if line.endswith("Accepted (grounded).")]
    assert len(accepted) == ["exact", "whitespace", "typography", "case", "skeleton"].index(accept) + 1


def test_report_fingerprints_name_the_policy_in_force() -> None:
    import ethos_py

    citations = SOURCES.parent / "cases" / "quote-element-grounded" / "citations.json"
    config = SOURCES.parent / "cases" / "quote-element-grounded" / "config.json"
    with ethos_py.Document.open(SOURCES / "report.json") as document:
        no_config = document.verify(citations)
        public = document.verify(citations, config)
        strict = document.verify(citations, config, policy="strict")
    assert no_config["policy_fingerprint"] == _explain("default")["policy_fingerprint"]
    assert strict["policy_fingerprint"] == _explain("strict")["policy_fingerprint"]
    parsed = json.loads(config.read_bytes())
    public_policy = {
        "policy_version": "1.0.0",
        "public_config": {
            "case_sensitive": parsed["matching"]["case_sensitive"],
            "text_normalization": parsed["matching"]["text_normalization"],
        },
    }
    assert schema_errors("policy", public_policy) == []
    # An explicit public config keeps the public top-level members only (strict public readers
    # accept it): the fingerprint and the Unicode version sit in attestation instead.
    assert "policy_fingerprint" not in public and "verifier" not in public
    assert public["attestation"]["policy_fingerprint"] == "sha256:" + _sha256(_c14n(public_policy))
    assert public["attestation"]["verifier"]["unicode_version"] == unicodedata.unidata_version
    for report in (no_config, strict):
        assert report["verifier"] == {"name": "ethos", "unicode_version": unicodedata.unidata_version, "version": "0.1.0"}
    for report in (no_config, public, strict):
        assert schema_errors("verification-report", report) == []


def test_policy_bytes_equal_the_preset_and_config_policy_hashes_as_parsed(tmp_path: Path) -> None:
    import ethos_py

    policy = _explain("default")["policy"]
    pretty = json.dumps(policy, indent=2).encode()  # not canonical bytes, same policy
    citations = json.loads((SOURCES.parent / "cases" / "quote-element-grounded" / "citations.json").read_bytes())
    config = json.loads((SOURCES.parent / "cases" / "quote-element-grounded" / "config.json").read_bytes())
    config["matching"]["policy"] = "strict"
    with ethos_py.Document.open(SOURCES / "report.json") as document:
        by_name = document.verify_json(citations, config, policy="default")
        by_bytes = document.verify_json(citations, config, policy=pretty)
        (tmp_path / "p.json").write_bytes(pretty)
        by_path = document.verify_json(citations, config, policy=tmp_path / "p.json")
        from_config = json.loads(document.verify_json(citations, config))
    assert by_name == by_bytes == by_path
    assert json.loads(by_name)["policy_fingerprint"] == _explain("default")["policy_fingerprint"]
    assert from_config["policy_fingerprint"] == _explain("strict")["policy_fingerprint"]
    assert from_config["verification_config_sha256"] == _sha256(_c14n(config))


@pytest.mark.parametrize(
    "policy_bytes,path,message",
    [
        (b'{"name":"a","name":"b"}', "$.name", "duplicate key"),
        (b"[1", None, "invalid JSON syntax"),
        (b'{"policy_version":"1.0.0"}', "$.name", "missing required field"),
        (b'{"name":"\xff"}', "$.name", "invalid UTF-8"),
    ],
)
def test_bad_policy_files_give_the_same_envelope_on_every_surface(
    tmp_path: Path, policy_bytes: bytes, path: str | None, message: str
) -> None:
    policy_file = tmp_path / "policy.json"
    policy_file.write_bytes(policy_bytes)
    citations = SOURCES.parent / "cases" / "quote-element-grounded" / "citations.json"
    outputs = []
    for command in ([sys.executable, "-m", "ethos_py.cli"], [harness.ethos_core_binary()]):
        for args in (["verify", "report.json", "--citations", str(citations)], ["explain"]):
            done = subprocess.run([*command, *args, "--policy", str(policy_file)], cwd=SOURCES, capture_output=True,
                                  timeout=harness.SUBPROCESS_TIMEOUT, check=False)
            outputs.append((done.returncode, done.stdout, done.stderr))
    assert len(set(outputs)) == 1
    code, stdout, stderr = outputs[0]
    envelope = json.loads(stderr)["error"]
    assert (code, stdout, envelope["code"], envelope["message"]) == (2, b"", "invalid_input", message)
    if message in ("invalid JSON syntax", "invalid UTF-8", "duplicate key"):  # found while parsing the bytes
        assert envelope["details"]["input"] == "policy"
    if path is not None:
        assert envelope["details"]["path"] == path


def test_unknown_preset_and_bad_guard_settings_are_refused() -> None:
    from ethos_py.errors import EthosError

    with pytest.raises(EthosError) as unknown:
        _explain("lenient")
    assert unknown.value.error_code == "invalid_input"
    policy = _explain("default")["policy"]
    policy["near_miss"]["max_candidates"] = 0
    with pytest.raises(EthosError) as bounded:
        _explain(json.dumps(policy).encode())
    assert json.loads(bytes(bounded.value.envelope))["error"]["details"]["path"] == "$.near_miss.max_candidates"
    del policy["near_miss"]["max_candidates"]
    with pytest.raises(EthosError) as missing:
        _explain(json.dumps(policy).encode())
    assert "max_candidates" in json.loads(bytes(missing.value.envelope))["error"]["message"] + json.dumps(
        json.loads(bytes(missing.value.envelope))["error"]["details"])


@pytest.mark.parametrize("policy", ["strict", "default", "permissive"])
def test_explain_is_byte_identical_on_both_clis(policy: str) -> None:
    outputs = set()
    for command in ([sys.executable, "-m", "ethos_py.cli"], [harness.ethos_core_binary()]):
        done = subprocess.run([*command, "explain", "--policy", policy], capture_output=True,
                              timeout=harness.SUBPROCESS_TIMEOUT, check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1
    (output,) = outputs
    assert json.loads(output)["policy"]["name"] == policy


def test_sensitivity_shows_each_preset_side_by_side() -> None:
    case = SOURCES.parent / "cases" / "policy-default-ladder-tiers"
    done = subprocess.run([sys.executable, "-m", "ethos_py.cli", "sensitivity", "report.json", "--citations",
                           str(case / "citations.json")], cwd=SOURCES, capture_output=True,
                          timeout=harness.SUBPROCESS_TIMEOUT, check=True)
    result = json.loads(done.stdout)
    assert result["policies"] == {name: _explain(name)["policy_fingerprint"] for name in ("strict", "default", "permissive")}
    rows = [(row["strict"], row["default"], row["permissive"]) for row in result["checks"]]
    grounded = lambda tier: {"status": "grounded", "tier": tier, "outcome": "grounded", "contiguous": True}
    refused = lambda tier: {"status": "mismatch", "reason": "text_mismatch", "tier": tier, "outcome": "rejected"}
    # Read from the presets: strict accepts through whitespace, default through case, permissive all.
    assert rows == [
        (grounded("whitespace"), grounded("whitespace"), grounded("whitespace")),
        (refused("typography"), grounded("typography"), grounded("typography")),
        (refused("case"), grounded("case"), grounded("case")),
        (refused("skeleton"), refused("skeleton"), grounded("skeleton")),
        (refused("skeleton"), refused("skeleton"), grounded("skeleton")),
    ]
    assert [row["id"] for row in result["checks"]] == ["v0001", "v0002", "v0003", "v0004", "v0005"]

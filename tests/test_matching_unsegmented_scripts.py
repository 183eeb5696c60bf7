"""test_matching_unsegmented_scripts - Thai, Lao, Myanmar and Khmer write no spaces between words;
verify reads each of their characters, with the signs that belong to it, as a token (docs/matching.md
"Whole tokens"), as it reads each Han character: a quote may start or end inside a sentence, but never
between a consonant and its vowel sign or tone mark, after a vowel written before its consonant, or
after a stacking sign; a number in Thai digits stays one token; a changed word is still refused."""

from __future__ import annotations

from typing import Any

from sources_support import text_quote_checks

THAI = "แม่น้ำเจ้าพระยาไหลผ่านใจกลางกรุงเทพมหานคร ปี ๒๕๖๓ มีฝนตกมาก\n"
LAO = "ນະຄອນຫຼວງວຽງຈັນຕັ້ງຢູ່ແຄມແມ່ນ້ຳຂອງ\n"
KHMER = "រាជធានីភ្នំពេញស្ថិតនៅលើទន្លេមេគង្គ\n"
MYANMAR = "ရန်ကုန်မြို့သည်မြန်မာနိုင်ငံ၏အကြီးဆုံးမြို့ဖြစ်သည်\n"


def _verdicts(source: str, quotes: list[str]) -> list[tuple[str, Any]]:
    checks = text_quote_checks(source.encode(), quotes, {"element_id": "e000001"})
    return [(c["status"], c.get("reason")) for c in checks]


def test_a_quote_may_start_and_end_inside_a_sentence() -> None:
    assert _verdicts(THAI, ["เจ้าพระยาไหลผ่าน", "ไหลผ่านใจกลางกรุงเทพ"]) == [("grounded", None)] * 2
    assert _verdicts(LAO, ["ວຽງຈັນຕັ້ງຢູ່"]) == [("grounded", None)]
    assert _verdicts(KHMER, ["ភ្នំពេញស្ថិតនៅ"]) == [("grounded", None)]
    assert _verdicts(MYANMAR, ["မြန်မာနိုင်ငံ"]) == [("grounded", None)]


def test_a_quote_never_splits_a_character_from_its_signs() -> None:
    # "แม่น้ำ" (river): ending at "แม" leaves its tone mark behind, starting at "่" begins on a sign,
    # and "เ" is written before the "จ" it follows in speech, so a quote may not end between them.
    assert _verdicts(THAI, ["แม", "่น้ำเจ้าพระยา", "น้ำเ"]) == [("mismatch", "token_boundary")] * 3
    # Khmer's coeng stacks the consonant after it ("ភ្ន"): no token ends on it.
    assert _verdicts(KHMER, ["រាជធានីភ្"]) == [("mismatch", "token_boundary")]


def test_a_number_in_thai_digits_is_one_token_and_a_changed_word_is_refused() -> None:
    assert _verdicts(THAI, ["ปี ๒๕๖๓", "ปี ๒๕๖"]) == [("grounded", None), ("mismatch", "token_boundary")]
    statuses = [status for status, _ in _verdicts(THAI, ["แม่น้ำเจ้าพระยาไหลผ่านใจกลางเชียงใหม่"])]
    assert statuses == ["mismatch"]

import re
from pathlib import Path

import pytest

from rocm_bridge import i18n

ROOT = Path(__file__).resolve().parent.parent
# t("key" / tr("key" / page_header("key" ... with a literal key
KEY_USE = re.compile(r"""\b(?:tr|t|page_header|_t)\(\s*["']([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)+)["']""")


def test_every_entry_has_both_languages():
    missing = [(k, lang) for k, v in i18n.catalog().items() for lang in i18n.LANGS if not v.get(lang, "").strip()]
    assert not missing, f"catalog entries missing a language: {missing[:20]}"


def test_placeholders_match_between_languages():
    field = re.compile(r"\{(\w+)")
    bad = [k for k, v in i18n.catalog().items() if set(field.findall(v["en"])) != set(field.findall(v["zh"]))]
    assert not bad, f"en and zh use different {{placeholders}}: {bad}"


def test_literal_keys_used_in_code_exist():
    used = {}
    for path in [*ROOT.glob("app.py"), *ROOT.glob("views/*.py"), *ROOT.glob("rocm_bridge/**/*.py")]:
        for key in KEY_USE.findall(path.read_text(encoding="utf-8")):
            used.setdefault(key, path.relative_to(ROOT))
    unknown = {k: str(p) for k, p in used.items() if not i18n.has(k)}
    assert not unknown, f"keys used in code but missing from the catalog: {unknown}"
    assert len(used) > 20  # the scan itself works


def test_unknown_key_raises():
    with pytest.raises(KeyError):
        i18n.t("no.such.key", "en")


def test_formatting_and_fallback():
    assert i18n.t("chapters.progress", "zh", read=2, total=8) == "本次已读章节：2 / 8"


@pytest.mark.parametrize(
    ("raw", "lang"),
    [("zh-CN", "zh"), ("zh_TW", "zh"), ("en-US", "en"), ("EN", "en"), ("fr-FR", None), ("", None), (None, None)],
)
def test_normalize_lang(raw, lang):
    assert i18n.normalize_lang(raw) == lang


def test_duplicate_key_across_files_is_refused(tmp_path):
    out = {}
    i18n._flatten({"a": {"b": {"en": "x", "zh": "y"}}}, "", out, "one.toml")
    with pytest.raises(ValueError, match="duplicate"):
        i18n._flatten({"a": {"b": {"en": "x", "zh": "y"}}}, "", out, "two.toml")

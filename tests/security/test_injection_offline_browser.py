"""Threats: Markdown injection through links and file names (docs/security.md #4) and requests off the server
(#9), in a real browser.

Every page is opened with every query key (and ?lang=) set to a Markdown payload; the hipify, coverage and doctor
uploaders get files whose names are payloads. Each time: no request leaves loopback (no favicon from
fonts.gstatic.com, no Google Fonts CSS from the code editor, no attacker image), and no payload marker ends up
inside a link, image, bold, italic, struck, coloured, code, heading or KaTeX element.
"""

from __future__ import annotations

import zipfile
from urllib.parse import urlencode, urlsplit

import pytest

from rocm_bridge.pages import PAGES
from tests.e2e.browser import EXCEPTION, wait_for_app
from tests.security.payloads import EVIL_HOST, MARKDOWN_PAYLOADS, NAME_PAYLOADS, QUERY_KEYS

LOCAL_SCHEMES = {"data", "blob", "about", "chrome-error"}
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}

RENDERED_PAYLOADS_JS = """
(evil) => {
  const FORMAT = new Set(["A", "IMG", "STRONG", "B", "EM", "I", "DEL", "S", "CODE", "H1", "H2", "H3", "H4", "H5",
                          "H6", "MARK", "U"]);
  const bad = [];
  for (const el of document.querySelectorAll("[href], [src], [srcset]")) {
    const v = (el.getAttribute("href") || "") + (el.getAttribute("src") || "") + (el.getAttribute("srcset") || "");
    if (v.includes(evil)) bad.push("attribute " + el.tagName + " " + v.slice(0, 80));
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let seen = 0;
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!/ZQ\\d/.test(node.data)) continue;
    seen++;
    if (node.parentElement.closest('[data-testid="stCode"]')) continue;  // st.code shows text verbatim (share link)
    for (let el = node.parentElement; el && el !== document.body; el = el.parentElement) {
      if (el.hasAttribute("data-testid")) break;  // the Streamlit element that holds the text: stop here
      const colored = el.tagName === "SPAN" && (el.hasAttribute("style") || /color/i.test(el.className));
      if (FORMAT.has(el.tagName) || colored || el.classList.contains("katex")) {
        bad.push("rendered " + el.tagName + ": " + node.data.slice(0, 60));
        break;
      }
    }
  }
  return {bad, seen};
}
"""


def _outside(urls: list[str]) -> list[str]:
    out = []
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme in LOCAL_SCHEMES:
            continue
        if parts.hostname not in LOCAL_HOSTS:
            out.append(url)
    return out


def _watch(page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda req: urls.append(req.url))
    return urls


def _check(page, urls: list[str], where: str, must_show: bool = True) -> None:
    page.wait_for_timeout(300)  # late requests: fonts, favicon, component CSS
    result = page.evaluate(RENDERED_PAYLOADS_JS, EVIL_HOST)
    assert result["bad"] == [], (where, result["bad"])
    if must_show:
        assert result["seen"] >= 1, f"{where}: no payload text visible at all (the test would prove nothing)"
    assert _outside(urls) == [], (where, _outside(urls))
    assert page.locator(EXCEPTION).count() == 0, where


@pytest.mark.parametrize("index", range(len(PAGES)), ids=[p.key for p in PAGES])
def test_every_page_with_payloads_in_every_query_key(app_server, page, index):
    spec = PAGES[index]
    n = len(MARKDOWN_PAYLOADS)
    query = {"lang": MARKDOWN_PAYLOADS[index % n]}
    query |= {key: MARKDOWN_PAYLOADS[(index + 1 + i) % n] for i, key in enumerate(QUERY_KEYS)}
    if spec.key == "coverage":  # recorded op lists: the same url_state code, without a 20 s TensorFlow trace
        query["cv_recorded"] = "1"
    urls = _watch(page)
    page.goto(f"{app_server}/{spec.url_path}?{urlencode(query)}")
    # the language toast quotes the payload: it must be there, as plain text (it goes after ~4 s)
    page.get_by_text("Unknown language").first.wait_for(timeout=30_000)
    _check(page, urls, spec.key)
    wait_for_app(page, 120_000)  # then the whole page, with every notice about the other keys
    if spec.key == "hipify":  # the editor component loads its CSS in an iframe
        page.frame_locator('iframe[title*="code_editor"]').first.locator(".ace_editor").wait_for(timeout=30_000)
    _check(page, urls, spec.key, must_show=False)


def _upload(page, name: str, data: bytes) -> None:
    page.locator('input[type="file"]').first.set_input_files(
        files=[{"name": name, "mimeType": "application/octet-stream", "buffer": data}]
    )


def test_hipify_upload_names_not_utf8_and_download_label(app_server, page, tmp_path):
    urls = _watch(page)
    page.goto(f"{app_server}/hipify?lang=en")
    wait_for_app(page, 60_000)
    for payload in NAME_PAYLOADS:
        # not UTF-8 (GBK bytes), so the warning quotes the name too; the caption and download label show it
        _upload(page, f"{payload}.cu", "int main() { cudaDeviceSynchronize(); } // 中文".encode("gbk"))
        page.get_by_text("is not valid UTF-8").first.wait_for(timeout=30_000)
        page.get_by_text("Showing the upload").first.wait_for(timeout=30_000)
        wait_for_app(page, 60_000)
        _check(page, urls, f"hipify upload {payload!r}")
    project = tmp_path / "project.zip"
    with zipfile.ZipFile(project, "w") as z:
        for i, payload in enumerate(NAME_PAYLOADS):
            z.writestr(f"{payload}{i}.cu", b"\xff\xfe cudaMalloc(&p, 4);")
    page.locator('input[type="file"]').first.set_input_files(str(project))
    page.get_by_text("Project:").first.wait_for(timeout=30_000)
    wait_for_app(page, 60_000)
    _check(page, urls, "hipify zip entries")


def test_coverage_and_doctor_upload_names(app_server, page):
    urls = _watch(page)
    page.goto(f"{app_server}/coverage?lang=en&cv_source=upload")
    wait_for_app(page, 60_000)
    for payload in NAME_PAYLOADS[:3]:
        _upload(page, f"{payload}.keras", b"PK not really a zip")
        page.locator('[data-testid="stAlert"]').first.wait_for(timeout=30_000)
        wait_for_app(page, 60_000)
        _check(page, urls, f"coverage upload {payload!r}", must_show=False)  # names are reduced to safe chars
    page.goto(f"{app_server}/doctor?lang=en")
    wait_for_app(page, 60_000)
    for payload in NAME_PAYLOADS[:3]:
        _upload(page, f"{payload}.log", b"\x00\x01 binary \x00")
        wait_for_app(page, 60_000)
        page.get_by_role("button", name="Diagnose").first.click()
        page.get_by_text("looks like a binary file").first.wait_for(timeout=30_000)
        _check(page, urls, f"doctor upload {payload!r}")

"""render_markdown: memory text shown as formatted HTML, with no way to inject markup."""

from __future__ import annotations

import os

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QTextBrowser

from memdesk.ui.detail.markdown_view import SafeBrowser, render_markdown


def test_headings_emphasis_lists_and_code_become_html():
    html = render_markdown("# Title\n\nSome **bold** and `code`.\n\n- one\n- two")
    assert "<h1>Title</h1>" in html
    assert "<strong>bold</strong>" in html
    assert "<code>code</code>" in html
    assert html.count("<li>") == 2


def test_tables_are_rendered():
    html = render_markdown("| tool | why |\n|---|---|\n| ruff | lint |")
    assert "<table>" in html
    assert "<th>tool</th>" in html
    assert "<td>ruff</td>" in html


def test_raw_html_in_memory_text_is_shown_as_text():
    html = render_markdown('<script>alert(1)</script> <img src="x" onerror="boom">')
    assert "<script>" not in html
    assert "<img" not in html
    assert "&lt;script&gt;" in html


def test_javascript_links_are_not_made_clickable():
    html = render_markdown("[click](javascript:alert(1)) and [docs](https://example.org)")
    assert 'href="javascript' not in html
    assert 'href="https://example.org"' in html


def test_a_text_browser_shows_the_words_without_markup(qtbot):
    browser = QTextBrowser()
    qtbot.addWidget(browser)
    browser.setHtml(render_markdown("## Prefers *uv*\n\n```\nuv sync\n```\n"))
    assert browser.toPlainText().split() == ["Prefers", "uv", "uv", "sync"]


def test_empty_or_missing_text_gives_an_empty_document():
    assert "<body></body>" in render_markdown("")


def test_an_image_is_named_never_loaded(qtbot, tmp_path):
    # /dev/zero made the window read until it ran out of memory; a FIFO hung it.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    text = f"![zeros](/dev/zero) ![pipe]({fifo}) ![beacon](https://example.org/?q=secret)"
    html = render_markdown(text)
    assert "<img" not in html
    assert "[image: zeros — /dev/zero]" in html
    browser = SafeBrowser()
    qtbot.addWidget(browser)
    browser.setHtml(html)
    assert "[image: beacon" in browser.toPlainText()


def test_the_safe_browser_loads_no_resource_even_from_raw_html(qtbot, tmp_path):
    picture = tmp_path / "p.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n")
    browser = SafeBrowser()
    qtbot.addWidget(browser)
    browser.setHtml(f'<img src="{picture}"><img src="/dev/zero">')
    for url in (QUrl.fromLocalFile(str(picture)), QUrl("/dev/zero"), QUrl("https://h/x.png")):
        assert browser.loadResource(QTextDocument.ResourceType.ImageResource, url) is None
    assert not browser.openLinks()


def test_a_block_that_starts_right_to_left_is_laid_out_right_to_left():
    """A window tryout (stop 90): a Hebrew paragraph was aligned left, its wrapped last line
    starting at the wrong edge."""
    shown = render_markdown(
        "המשתמש עובד באזור זמן ישראל (UTC+2)\n\n"
        "UTC+2 is Israel's winter time, says המשתמש\n\n"
        "- פריט ראשון\n- second item\n\n"
        "## يفضّل المستخدم"
    )
    assert '<p dir="rtl">המשתמש' in shown
    assert "<p>UTC+2 is Israel" in shown  # led by a left-to-right word: left to right
    assert '<li dir="rtl">פריט' in shown
    assert "<li>second item" in shown
    assert '<h2 dir="rtl">' in shown

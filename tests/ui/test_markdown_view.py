"""render_markdown: memory text shown as formatted HTML, with no way to inject markup."""

from __future__ import annotations

from PySide6.QtWidgets import QTextBrowser

from memdesk.ui.detail.markdown_view import render_markdown


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

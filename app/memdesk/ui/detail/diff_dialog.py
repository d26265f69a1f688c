"""Readable word-level diffs (used by History and by conflicts), and a dialog that shows one."""

from __future__ import annotations

import html
import re

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QVBoxLayout, QWidget

from memdesk.core import word_diff
from memdesk.ui.detail.markdown_view import SafeBrowser

ADDED_STYLE = "background-color: rgba(46, 160, 67, 80)"
REMOVED_STYLE = "background-color: rgba(248, 81, 73, 80); text-decoration: line-through"
# Words keep their trailing space, so a rewritten sentence reads as old-then-new, not interleaved.
_WORDS = re.compile(r"\S+\s*|\s+")


def diff_html(old: str, new: str) -> str:
    """`new` as HTML with words added since `old` tinted green and removed ones struck red."""
    a, b = _WORDS.findall(old or ""), _WORDS.findall(new or "")
    out = []
    for op, i1, i2, j1, j2 in word_diff.opcodes(a, b):
        if op in ("delete", "replace"):
            out.append(f'<span style="{REMOVED_STYLE}">{_text(a[i1:i2])}</span>')
        if op in ("insert", "replace"):
            out.append(f'<span style="{ADDED_STYLE}">{_text(b[j1:j2])}</span>')
        if op == "equal":
            out.append(_text(a[i1:i2]))
    return "<div style='white-space: pre-wrap'>" + "".join(out) + "</div>"


def _text(tokens: list[str]) -> str:
    return html.escape("".join(tokens)).replace("\n", "<br>")


class DiffDialog(QDialog):
    """Shows how `new` differs from `old` (e.g. the agent's version against the person's)."""

    def __init__(
        self, title: str, old: str, new: str, legend: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(640, 420)
        browser = SafeBrowser(self)
        browser.setHtml(f"<p><i>{html.escape(legend)}</i></p>" + diff_html(old, new))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(browser)
        layout.addWidget(buttons)

"""Memory text rendered as HTML for a QTextBrowser (detail panel, identity preview).

Memories are written by agents, so their text is untrusted: raw HTML in it is shown as text,
never interpreted, markdown-it's link validation drops `javascript:` and similar links, and an
image is shown as its description and address, never loaded: `![x](/dev/zero)` made the
window read until it ran out of memory, a FIFO hung it, and a remote image would tell a host
what the person reads. `SafeBrowser` loads no resource whatever HTML reaches it.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter
from typing import Any

from markdown_it import MarkdownIt
from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QTextBrowser

# Qt's rich text understands a subset of CSS. No text or page colour is set, so the text
# follows the widget's palette (light or dark); tints are translucent grey, which reads on both.
STYLESHEET = """
body { line-height: 130%; }
h1 { font-size: x-large; margin-top: 6px; margin-bottom: 6px; }
h2 { font-size: large; margin-top: 10px; margin-bottom: 4px; }
h3, h4, h5, h6 { font-size: medium; margin-top: 8px; margin-bottom: 4px; }
p, ul, ol { margin-top: 0px; margin-bottom: 8px; }
li { margin-bottom: 2px; }
code { font-family: monospace; background-color: rgba(128, 128, 128, 45); }
pre code { background-color: transparent; }
pre { font-family: monospace; background-color: rgba(128, 128, 128, 35);
      line-height: 100%; padding: 6px; margin-top: 0px; margin-bottom: 8px; }
blockquote { margin-left: 12px; margin-right: 0px; color: #8a8f98; font-style: italic; }
table { border-collapse: collapse; margin-bottom: 8px; }
th { font-weight: 600; }
th, td { border: 1px solid rgba(128, 128, 128, 110); padding: 3px 8px; }
hr { color: rgba(128, 128, 128, 110); }
"""


def _parser(breaks: bool, tables: bool = True) -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False, "typographer": False, "breaks": breaks})
    parser.add_render_rule("image", _image_as_text)
    parser.core.ruler.push("direction", _marked_right_to_left)
    parser.enable("strikethrough")
    return parser.enable("table") if tables else parser


# A table's rows are filled to its header's width: 1.9 KB of a 200-column header over bare
# "|" rows became 180,000 tokens, and an agent's 64 KB of them froze the window (and every
# agent it serves) for minutes at 3 GB. Past this many cells a text's tables are shown as the
# lines they were written as.
MAX_TABLE_CELLS = 20_000


def _cells_at_most(text: str) -> int:
    """An upper bound of the cells the text's tables could fill: its lines that could be table
    rows, each as wide as its widest line."""
    lines = [line for line in text.splitlines() if "|" in line]
    return len(lines) * (max((line.count("|") for line in lines), default=0) + 1)


def _image_as_text(self: Any, tokens: list, idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    alt = self.renderInlineAsText(token.children or [], options, env)
    return f"[image: {html.escape(alt)} — {html.escape(token.attrGet('src') or '')}]"


def _marked_right_to_left(state: Any) -> None:
    """A block whose text starts right to left (Hebrew, Arabic) is laid out so: Qt aligned it
    left, and its wrapped last line started at the wrong edge."""
    tokens = state.tokens
    for at, inline in enumerate(tokens):
        if inline.type != "inline" or at == 0 or not _starts_rtl(inline.content):
            continue
        opening = tokens[at - 1]
        if opening.hidden and at > 1:  # a tight list's paragraph: its item is the block
            opening = tokens[at - 2]
        if opening.nesting == 1:
            opening.attrSet("dir", "rtl")


def _starts_rtl(text: str) -> bool:
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


_PARSER = _parser(breaks=False)
# The identity profile is read line by line (each line an entry): a line is not a paragraph's
# soft wrap there.
_BY_LINE = _parser(breaks=True)
_NO_TABLES = {False: _parser(breaks=False, tables=False), True: _parser(breaks=True, tables=False)}


class SafeBrowser(QTextBrowser):
    """A QTextBrowser for untrusted text: it loads no image, stylesheet or page, local or
    remote, and opens no link by itself (the owner decides what a click does)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setSearchPaths([])

    def loadResource(self, kind: int, name: QUrl) -> Any:  # noqa: N802 (Qt's name)
        return None


def render_markdown(text: str, *, by_line: bool = False) -> str:
    """A complete HTML document for `QTextBrowser.setHtml`, styled for either palette; with
    `by_line`, each line of a paragraph is shown on its own line."""
    parser = _BY_LINE if by_line else _PARSER
    if _cells_at_most(text or "") > MAX_TABLE_CELLS:
        parser = _NO_TABLES[by_line]
    # A fenced block ends with a newline, which Qt would show as an empty shaded line.
    body = parser.render(text or "").replace("\n</code></pre>", "</code></pre>")
    if not _every_word_shown(text or "", body):
        body = f"<p><i>{AS_WRITTEN}</i></p><p>{html.escape(text).replace(chr(10), '<br>')}</p>"
    return f"<html><head><style>{STYLESHEET}</style></head><body>{body}</body></html>"


# markdown-it stops reading a block nested past its limit (20 quotes or list levels) and
# drops the rest of it: an agent put its claim 21 quotes deep, and the panel showed only the
# harmless lines before it while every agent read the claim. Such a text is shown as written.
AS_WRITTEN = "Shown as written: nested deeper than the panel renders."
_WORD = re.compile(r"[^\W_]+")
# Not shown as words: an entity ("&#x202E;" is the character it names), a reference link's
# label ("[the docs][d]", "[d]: https://…") and an ordered list's numbers.
_UNSHOWN = re.compile(r"&#?\w+;|\]\[[^\]\n]*\]|^ {0,3}\[[^\]\n]+\]:|^[ >]*\d{1,9}[.)]", re.M)


def _every_word_shown(text: str, body: str) -> bool:
    """Each word as often as it was written (counted, not only met: a claim dropped past the
    limit can be made of words said above it)."""
    said = Counter(_WORD.findall(_UNSHOWN.sub(" ", text)))
    return not said - Counter(_WORD.findall(html.unescape(body)))

"""Memory text rendered as HTML for a QTextBrowser (detail panel, identity preview).

Memories are written by agents, so their text is untrusted: raw HTML in it is shown as text,
never interpreted, and markdown-it's link validation drops `javascript:` and similar links.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

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

_PARSER = (
    MarkdownIt("commonmark", {"html": False, "typographer": False})
    .enable("table")
    .enable("strikethrough")
)


def render_markdown(text: str) -> str:
    """A complete HTML document for `QTextBrowser.setHtml`, styled for either palette."""
    # A fenced block ends with a newline, which Qt would show as an empty shaded line.
    body = _PARSER.render(text or "").replace("\n</code></pre>", "</code></pre>")
    return f"<html><head><style>{STYLESHEET}</style></head><body>{body}</body></html>"

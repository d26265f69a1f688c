"""Text written by an agent, a file or a remote, shown as the text it is.

Qt takes a tooltip that looks like HTML for HTML and loads what an <img> in it names: hovering
`<img src="/dev/zero">` filled memory until the window died, a FIFO path hung it. Every tooltip
that shows such text goes through `tip`; labels that show it are set to plain text.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as QtGui

from memdesk.core.display import visible


def tip(text: str) -> str:
    """`text` as a tooltip that shows it literally (escaped, its lines kept, wrapped, its
    invisible and direction-changing characters named)."""
    return QtGui.convertFromPlainText(visible(text), Qt.WhiteSpaceMode.WhiteSpaceNormal)

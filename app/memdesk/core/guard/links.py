"""Links and images that would carry data to a host when a model writes them out: an address
whose query holds a placeholder for the reader to fill in ({secret}, $TOKEN, <chat>, [PASTE],
%ENV%), an image whose query holds a long encoded value, or an address left open at "=" for
the reader to append to. Ordinary links with query strings (searches, filters, badges) pass."""

from __future__ import annotations

import re

CARRIES = "links to a host with data for the reader to fill in"
IMAGE = "shows an image whose address carries data to a host"

_MARKDOWN = re.compile(r"(!?)\[[^\]\n]*\]\(([^)\n]*)\)")
_HTML = re.compile(
    r"<(img|a|iframe|script|link)\b[^<>]{0,200}?\b(?:src|href)\s*=\s*[\"']?([^\"'>\s]+)", re.I
)
_BARE = re.compile(r"https?://[^\s)\]>\"']+", re.I)
_PLACEHOLDER = re.compile(
    r"\{\{?[^}]*\}\}?|\$\{?[a-z_(]|%[a-z_]{2,}%|<[^>]+>|(?-i:\[[^\]]*[ A-Z][^\]]*\])", re.I
)
_ALL_CAPS = re.compile(r"=[A-Z][A-Z0-9_]*(?:PASSWORD|SECRET|TOKEN|KEY|USER|EMAIL|COOKIE|"
                       r"CREDENTIAL|BASE64|ENV|DATA|CHAT|HISTORY|NAME)[A-Z0-9_]*\b")  # fmt: skip
_OPAQUE = re.compile(r"=[A-Za-z0-9+/_%-]{32,}")
_APPEND = re.compile(r"\b(?:append|add|followed by|concatenate|plus|attach|fill in|put)\b", re.I)


def find(text: str) -> list[str]:
    found = []
    for image, address in _addresses(text):
        query = address.partition("?")[2]
        if not query:
            continue
        if _PLACEHOLDER.search(query) or _ALL_CAPS.search(query):
            found.append(IMAGE if image else CARRIES)
        elif image and _OPAQUE.search(query):
            found.append(IMAGE)
        elif query.endswith("=") and _APPEND.search(text):
            found.append(CARRIES)
    return sorted(set(found), key=found.index)


def _addresses(text: str) -> list[tuple[bool, str]]:
    """(is it an image, the address) for every link in `text`; a bare address is a link."""
    found = [(m.group(1) == "!", m.group(2).strip()) for m in _MARKDOWN.finditer(text)]
    found += [(m.group(1).lower() == "img", m.group(2)) for m in _HTML.finditer(text)]
    seen = {address for _, address in found}
    found += [(False, url) for url in _BARE.findall(text) if not any(url in a for a in seen)]
    return [(image, address) for image, address in found if "?" in address]

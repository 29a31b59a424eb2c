"""How the site shows docstrings written for Python readers (mkdocs.yml loads this file twice:
as an MkDocs hook, `hooks:`, and as a griffe extension, `DocstringsForMarkdown`).

The docstrings are plain prose with reST habits: doctest examples (``>>>``) and Sphinx roles such
as :func:`solve`. Markdown would read a doctest as a quotation and show the role's name, so the
extension fences each doctest as a ``pycon`` code block and the hook drops the role before its code
span. Nothing else is changed."""

from __future__ import annotations

import re

import griffe

_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc|obj|const|py:\w+):(?=<code>)")


def on_page_content(html: str, **_kwargs) -> str:
    """MkDocs hook: ``:func:<code>x</code>`` -> ``<code>x</code>``."""
    return _ROLE.sub("", html)


def fence_doctests(text: str) -> str:
    """Wrap every doctest (from a ``>>>`` line to the next blank line) in a ``pycon`` fence."""
    lines, out, index = text.splitlines(), [], 0
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            while index < len(lines) and lines[index].strip():
                out.append(lines[index])
                index += 1
            out.append(f"{indent}```")
            continue
        out.append(line)
        index += 1
    return "\n".join(out)


class DocstringsForMarkdown(griffe.Extension):
    """griffe extension: doctests in docstrings become code blocks."""

    def on_instance(self, *, obj: griffe.Object, **_kwargs) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)

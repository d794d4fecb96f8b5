"""The pieces every widget is built from: buttons with a tooltip and a CSS class, a status line.

A status line is a polite live region (``role="status"``, ``aria-live="polite"``): a screen
reader says its new text when the reader is idle, so a student hears the computer's reply, the
result, the trace step. ipywidgets 8 sets no ARIA attribute on a widget itself, so the region
is an element inside the ``HTML`` widget's value.
"""
from __future__ import annotations

import html

import ipywidgets as widgets

from ..boards.alt import details_html


def _button(description: str, tooltip: str, css: str, **options) -> widgets.Button:
    button = widgets.Button(description=description, tooltip=tooltip, **options)
    button.add_class(css)
    return button


def live(text: str) -> str:
    """``text`` (escaped) as a polite live region's HTML."""
    return f'<span role="status" aria-live="polite">{html.escape(text)}</span>'


def _status_html(text: str, css: str) -> widgets.HTML:
    status = widgets.HTML(value=live(text))
    status.add_class(css)
    return status


def picture_html(picture) -> str:
    """A ``Picture`` as an HTML ``<img>`` with its description as ``alt`` (ipywidgets'
    ``Image`` has no ``alt``), scaled down to fit."""
    image = picture._repr_mimebundle_()["text/html"].replace(
        "<img ", '<img style="max-width:100%" ', 1)
    return image + details_html(picture.details)


def _picture_widget(css: str) -> widgets.HTML:
    view = widgets.HTML()
    view.add_class(css)
    return view

"""The pieces every widget is built from: buttons with a tooltip and a CSS class, a status line."""
from __future__ import annotations

import html

import ipywidgets as widgets


def _button(description: str, tooltip: str, css: str, **options) -> widgets.Button:
    button = widgets.Button(description=description, tooltip=tooltip, **options)
    button.add_class(css)
    return button


def _status_html(text: str, css: str) -> widgets.HTML:
    status = widgets.HTML(value=f"<span>{html.escape(text)}</span>")
    status.add_class(css)
    return status

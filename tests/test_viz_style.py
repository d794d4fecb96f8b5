"""The palette of ``ttt_lib.viz.style`` measured: every ink against what it stands on (WCAG 2.1
contrast, computed here from the sRGB formula, not taken from the module), the categorical
colours apart under simulated colour-vision deficiencies, and no colour defined elsewhere in
``ttt_lib.viz`` or the widgets."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from ttt_lib.viz import style

colorspacious = pytest.importorskip("colorspacious")

ROOT = Path(__file__).resolve().parent.parent
HEX = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")
# CAM02-UCS distance between two categorical colours as a reader with each deficiency sees
# them (colorspacious's Machado et al. 2009 simulation at full severity). About 2 is the
# smallest difference people notice side by side; 15 is about seven times that, clear at a
# glance on a plot's thin lines and small marks, and it is above what the red/green
# pair (#c0392b against #27ae60) keeps under deuteranopia (14.8), so that pair fails.
CVD_THRESHOLD = 15.0
DEFICIENCIES = ("protanomaly", "deuteranomaly", "tritanomaly")


def rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


def wcag_ratio(a: str, b: str) -> float:
    """The WCAG 2.1 contrast ratio, written out again for the test."""
    def lum(colour):
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb(colour)]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("ink, background", style.TEXT_PAIRS)
def test_text_is_at_least_4_5_to_1(ink, background):
    assert wcag_ratio(ink, background) >= 4.5, (ink, background, wcag_ratio(ink, background))


@pytest.mark.parametrize("ink, background", style.MARK_PAIRS)
def test_marks_and_lines_are_at_least_3_to_1(ink, background):
    assert wcag_ratio(ink, background) >= 3.0, (ink, background, wcag_ratio(ink, background))


def test_the_ratio_formula_matches_known_values():
    assert wcag_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert wcag_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the figure
    assert style.contrast("#c0392b", "#27ae60") == pytest.approx(1.89, abs=0.01)


def test_every_colour_of_the_style_module_is_measured():
    colours = {value.lower() for name, value in vars(style).items()
               if isinstance(value, str) and HEX.fullmatch(value)}
    measured = {c.lower() for pair in style.TEXT_PAIRS + style.MARK_PAIRS for c in pair}
    fills = {style.MAX_FILL, style.MIN_FILL, style.CHANCE_FILL, style.PRUNED_FILL,
             style.HIGHLIGHT_COLOUR, style.WIN_CELL, style.SCORE_MID, style.WHITE, style.BLACK}
    assert colours - measured - {f.lower() for f in fills} == set()
    assert {f.lower() for f in fills} - {style.BLACK} <= measured  # text measured on each


def simulated(colour: str, deficiency: str):
    space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
    return colorspacious.cspace_convert(rgb(colour), space, "sRGB1").clip(0, 1)


@pytest.mark.parametrize("deficiency", DEFICIENCIES)
@pytest.mark.parametrize("group", sorted(style.CATEGORIES))
def test_categories_stay_apart_with_colour_vision_deficiency(group, deficiency):
    for a, b in itertools.combinations(style.CATEGORIES[group], 2):
        distance = colorspacious.deltaE(simulated(a, deficiency), simulated(b, deficiency),
                                        input_space="sRGB1", uniform_space="CAM02-UCS")
        assert distance >= CVD_THRESHOLD, (group, deficiency, a, b, round(float(distance), 1))


def test_the_old_red_and_green_fail_the_same_check():
    """The check can fail: the outcome colours before issue 36 (red #c0392b, green #27ae60)
    come out too close for a reader with deuteranopia."""
    distance = colorspacious.deltaE(simulated("#c0392b", "deuteranomaly"),
                                    simulated("#27ae60", "deuteranomaly"),
                                    input_space="sRGB1", uniform_space="CAM02-UCS")
    assert distance < CVD_THRESHOLD


def test_ink_on_picks_a_readable_ink_for_every_score_colour():
    from ttt_lib.viz.heatmap import SCORE_COLOURS, score_ink
    from matplotlib.colors import to_hex
    for i in range(101):
        background = to_hex(SCORE_COLOURS(i / 100))
        assert wcag_ratio(score_ink(i / 100), background) >= 4.5, (i, background)


def viz_sources() -> list[Path]:
    folders = [ROOT / "ttt_lib" / "viz", ROOT / "ttt_lib" / "widgets"]
    return sorted(path for folder in folders for path in folder.glob("*.py")
                  if path.name != "style.py")


@pytest.mark.parametrize("path", viz_sources(), ids=lambda p: p.name)
def test_no_colour_is_defined_outside_the_style_module(path):
    assert HEX.findall(path.read_text()) == []


@pytest.mark.parametrize("fill", sorted({c for group in style.CATEGORIES.values() for c in group}))
def test_counts_written_on_a_categorical_fill_are_readable(fill):
    assert wcag_ratio(style.ink_on(fill), fill) >= 4.5

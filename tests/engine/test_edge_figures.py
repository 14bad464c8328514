"""The house edges the site shows (tables/engine/exact/edge_figures.py) are the analyser's."""

from __future__ import annotations

import dataclasses
import json
from io import StringIO

import pytest
from django.core.management import call_command

from tables.engine import PROFILES
from tables.engine.exact import analyse, edge_figures


def test_it_holds_a_figure_for_every_profile():
    assert set(edge_figures.FIGURES) == set(PROFILES)
    assert edge_figures.basic_strategy_edge_pct(PROFILES["atlantic-city"]) == pytest.approx(0.48767)


def test_the_stored_figures_are_the_analysers():
    game = analyse(PROFILES["rocket-academy"])
    stored = edge_figures.FIGURES["rocket-academy"]
    assert stored["basic_strategy_edge_pct"] == round(100 * game.basic_strategy_edge, 5)
    assert stored["house_edge_pct"] == round(100 * game.house_edge, 5)


def test_it_gives_no_figure_for_rules_that_are_not_a_profiles():
    changed = dataclasses.replace(PROFILES["internet-6"], dealer_hits_soft_17=True)
    assert edge_figures.basic_strategy_edge_pct(changed) is None


def test_the_edges_command_writes_a_module_that_holds_its_figures(tmp_path, monkeypatch):
    figures = {"rocket-academy": {"house_edge_pct": -0.3, "basic_strategy_edge_pct": -0.2, "sd_per_round": 1.1}}
    text = edge_figures.module_text(figures)
    namespace: dict = {}
    exec(compile(text.replace("from ..rules import", "from tables.engine.rules import"), "m", "exec"), namespace)
    assert namespace["FIGURES"] == figures
    # The command itself, on one quick profile.
    monkeypatch.setattr("tables.management.commands.blackjack.PROFILES", {"rocket-academy": PROFILES["rocket-academy"]})
    out = StringIO()
    target = tmp_path / "figures.py"
    call_command("blackjack", "edges", "--write", "--output", str(target), stdout=out, stderr=StringIO())
    last = json.loads(out.getvalue().strip().splitlines()[-1])
    assert last["profiles"]["rocket-academy"] == edge_figures.FIGURES["rocket-academy"]
    assert '"basic_strategy_edge_pct": -0.26907' in target.read_text()

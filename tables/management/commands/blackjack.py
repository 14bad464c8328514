"""``manage.py blackjack scenario FILE.json``, ``... simulate ...``, ``... ev ...``, ``... edge ...`` and ``... edges``.

A thin shell: the work is done by ``tables.engine.scenario``, ``tables.engine.simulate``
and ``tables.engine.exact``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.engine.exact import (
    Composition,
    action_evs,
    analyse,
    best_action,
    describe_hand,
    edge_figures,
)
from tables.engine.rules import PROFILES
from tables.engine.scenario import ScenarioError, load_scenario, run_scenario
from tables.engine.simulate import ENGINES, parse_seed, simulate


class Command(BaseCommand):
    help = "Play a rigged-shoe scenario, or simulate basic strategy over many rounds."

    def add_arguments(self, parser: CommandParser) -> None:
        commands = parser.add_subparsers(dest="subcommand", required=True)
        scenario = commands.add_parser("scenario", help="play one scenario file (scenarios/FORMAT.md)")
        scenario.add_argument("file", help="the scenario's JSON file")
        simulation = commands.add_parser("simulate", help="measure the house edge of basic strategy")
        simulation.add_argument("--profile", required=True, choices=sorted(PROFILES))
        simulation.add_argument("--rounds", type=int, required=True)
        simulation.add_argument("--seats", type=int, default=1)
        simulation.add_argument("--seed", default=None, help="64 hex digits, or any text (hashed)")
        simulation.add_argument("--workers", type=int, default=1)
        simulation.add_argument("--fresh-shoe", action="store_true", help="reshuffle before every round")
        simulation.add_argument("--engine", choices=ENGINES, default="fast",
                                help="fast: the basic-strategy loop (default); round: the tables' GameRound")
        ev = commands.add_parser("ev", help="exact expected value of every legal action for one hand")
        ev.add_argument("--profile", required=True, choices=sorted(PROFILES))
        ev.add_argument("--hand", required=True, help="the player's cards, e.g. T,6")
        ev.add_argument("--dealer", required=True, help="the dealer's up card, e.g. T")
        ev.add_argument("--removed", default="", help="other cards already out of the shoe, e.g. 5,9,K")
        edge = commands.add_parser("edge", help="exact house edge of a profile off the top of a fresh shoe")
        edge.add_argument("--profile", required=True, choices=sorted(PROFILES))
        edges = commands.add_parser("edges", help="exact edges of every profile; --write stores them for the site")
        edges.add_argument("--write", action="store_true",
                           help=f"write the figures the lobby shows ({edge_figures.__name__.replace('.', '/')}.py)")
        edges.add_argument("--output", default=None, help="write to this file instead (with --write)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["subcommand"] == "scenario":
            self._scenario(options["file"])
        elif options["subcommand"] == "ev":
            self._ev(options)
        elif options["subcommand"] == "edge":
            self._edge(options["profile"])
        elif options["subcommand"] == "edges":
            self._edges(options)
        else:
            self._simulate(options)

    def _scenario(self, path: str) -> None:
        try:
            scenario = load_scenario(path)
        except ScenarioError as error:
            raise CommandError(f"{path}: {error}", returncode=2) from error
        self.stdout.write(json.dumps(run_scenario(scenario)))

    def _simulate(self, options: dict[str, Any]) -> None:
        bar = None
        if sys.stderr.isatty():
            from tqdm import tqdm

            bar = tqdm(total=options["rounds"], unit="round", unit_scale=True, file=sys.stderr)
        try:
            result = simulate(
                profile=options["profile"],
                rounds=options["rounds"],
                seats=options["seats"],
                seed=parse_seed(options["seed"]),
                workers=options["workers"],
                fresh_shoe=options["fresh_shoe"],
                progress=bar.update if bar is not None else None,
                engine=options["engine"],
            )
        except ValueError as error:
            raise CommandError(str(error), returncode=2) from error
        finally:
            if bar is not None:
                bar.close()
        self.stdout.write(json.dumps(result))

    def _ev(self, options: dict[str, Any]) -> None:
        rules = PROFILES[options["profile"]]
        hand = [card for card in options["hand"].split(",") if card.strip()]
        removed = [card for card in options["removed"].split(",") if card.strip()]
        try:
            shoe = Composition.full(rules.decks).without(removed)
            evs = action_evs(rules, shoe, hand, options["dealer"])
            dealer = describe_hand([options["dealer"]])
        except ValueError as error:
            raise CommandError(str(error), returncode=2) from error
        self.stdout.write(json.dumps({
            "profile": rules.slug,
            "hand": describe_hand(hand),
            "dealer": dealer,
            "ev": evs,
            "best": best_action(evs),
        }))

    def _edge(self, profile: str) -> None:
        started = time.perf_counter()
        game = analyse(PROFILES[profile])
        self.stdout.write(json.dumps({
            "profile": profile,
            "house_edge_pct": round(100 * game.house_edge, 5),
            "basic_strategy_edge_pct": round(100 * game.basic_strategy_edge, 5),
            "sd_per_round": round(game.sd_per_round, 5),
            "seconds": round(time.perf_counter() - started, 2),
        }))

    def _edges(self, options: dict[str, Any]) -> None:
        """Every profile's exact edges, one JSON line each, then all of them; --write stores them."""
        started = time.perf_counter()
        figures = {}
        for slug in sorted(PROFILES):
            game = analyse(PROFILES[slug])
            figures[slug] = {
                "house_edge_pct": round(100 * game.house_edge, 5),
                "basic_strategy_edge_pct": round(100 * game.basic_strategy_edge, 5),
                "sd_per_round": round(game.sd_per_round, 5),
            }
            self.stdout.write(json.dumps({"profile": slug, **figures[slug]}))
        if options["write"]:
            path = Path(options["output"] or edge_figures.__file__)
            path.write_text(edge_figures.module_text(figures))
            self.stderr.write(f"Wrote {path}")
        self.stdout.write(json.dumps({"profiles": figures, "seconds": round(time.perf_counter() - started, 2)}))

"""``manage.py blackjack scenario FILE.json`` and ``manage.py blackjack simulate ...``.

A thin shell: the work is done by ``tables.engine.scenario`` and ``tables.engine.simulate``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.engine.rules import PROFILES
from tables.engine.scenario import ScenarioError, load_scenario, run_scenario
from tables.engine.simulate import parse_seed, simulate


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

    def handle(self, *args: Any, **options: Any) -> None:
        if options["subcommand"] == "scenario":
            self._scenario(options["file"])
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
            )
        except ValueError as error:
            raise CommandError(str(error), returncode=2) from error
        finally:
            if bar is not None:
                bar.close()
        self.stdout.write(json.dumps(result))

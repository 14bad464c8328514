"""Pieces kept across a table's versions (tables.live.frames.Rendered.kept_piece): rendered once, the least recently used dropped."""

from __future__ import annotations

from types import SimpleNamespace

from tables.live.frames import MAX_KEPT, Rendered


def version(number: int, previous: Rendered | None = None) -> Rendered:
    return Rendered(SimpleNamespace(version=number, seats=(), seat_keys=()), previous)


class Renders:
    def __init__(self) -> None:
        self.made: list[str] = []

    def __call__(self, key: str):
        def render() -> str:
            self.made.append(key)
            return f"<p>{key}</p>"

        return render


def test_it_renders_a_piece_once_for_every_version_that_shows_it():
    renders = Renders()
    first = version(1)
    second = version(2, first)

    assert first.kept_piece("dealer", renders("dealer")) == "<p>dealer</p>"
    assert second.kept_piece("dealer", renders("dealer")) == "<p>dealer</p>"
    assert renders.made == ["dealer"]


def test_past_its_limit_it_drops_the_piece_least_recently_used():
    renders = Renders()
    table = version(1)
    for number in range(MAX_KEPT):
        table.kept_piece(f"piece {number}", renders(f"piece {number}"))
    table = version(2, table)
    table.kept_piece("piece 0", renders("piece 0"))  # the oldest, used again
    table.kept_piece("new", renders("new"))  # one more than the limit

    assert len(table.kept) == MAX_KEPT
    table.kept_piece("piece 0", renders("piece 0"))
    table.kept_piece("piece 1", renders("piece 1"))
    assert renders.made.count("piece 0") == 1  # kept: it was used again
    assert renders.made.count("piece 1") == 2  # dropped: the least recently used


def test_a_piece_in_use_stays_while_many_others_come_and_go():
    # A free seat's shell, say: shown again now and then, not at every version.
    renders = Renders()
    table = version(1)
    for number in range(2, 8 * MAX_KEPT):
        table = version(number, table)
        if number % 7 == 0:
            table.kept_piece("shell", renders("shell"))
        table.kept_piece(f"seat play {number}", renders(f"seat play {number}"))

    assert renders.made.count("shell") == 1

"""The only module that moves chips.

Every movement is a Transfer between two LedgerAccounts, written in the same
database transaction as the change that caused it (callers open the
transaction; `transfer` joins it). The balances cached on the accounts are
updated with F() expressions in that transaction, and a debit is a
conditional UPDATE (`balance >= amount`), so two racing debits of the last
chips of an account cannot both succeed, on SQLite or PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction

from accounts.models import (
    OVERDRAFT_KINDS,
    AccountKind,
    LedgerAccount,
    Transfer,
    TransferKind,
    fit_to_field,
)
from accounts.system_accounts import forget_system_accounts as forget_system_accounts
from accounts.system_accounts import grants_account
from accounts.system_accounts import house_account as house_account
from casino import rows, sql

if TYPE_CHECKING:
    from django.db.models import Model

    from accounts.models import User

    # A transfer's round is a tables.models.Round; the ledger sits below the tables and names no model of theirs.
    Round = Model


class LedgerError(Exception):
    """A transfer that cannot be made; the message is fit for a player or an admin."""


class InsufficientChips(LedgerError):
    pass


def _check_amount(amount: object) -> int:
    # bool is an int subclass; True chips is not an amount.
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise LedgerError(f"A chip amount must be a whole number, not {amount!r}.")
    if amount <= 0:
        raise LedgerError(f"A transfer moves at least 1 chip, not {amount}.")
    return amount


def transfer(
    *,
    source: LedgerAccount,
    destination: LedgerAccount,
    amount: int,
    kind: TransferKind,
    reason: str = "",
    created_by: User | None = None,
    round: Round | None = None,
    savepoint: bool = True,
) -> Transfer:
    """Move `amount` chips from `source` to `destination` and record it.

    Raises InsufficientChips, leaving everything unchanged, when the source
    may not go below zero and holds fewer than `amount` chips. A caller whose
    whole transaction ends with such an error may pass savepoint=False and
    save the two statements that bracket the transfer: the error then undoes
    the caller's transaction along with it.
    """
    amount = _check_amount(amount)
    if source.pk == destination.pk:
        raise LedgerError("A transfer needs two different accounts.")
    with transaction.atomic(savepoint=savepoint):
        # Rows are always written in primary-key order, so two transactions
        # moving chips between the same accounts cannot deadlock each other.
        if source.pk < destination.pk:
            _debit(source, amount)
            _credit(destination, amount)
        else:
            _credit(destination, amount)
            try:
                _debit(source, amount)
            except InsufficientChips:
                destination.balance -= amount  # the savepoint rolls the row back; mirror it
                raise
        return Transfer.objects.create(
            source=source,
            destination=destination,
            amount=amount,
            kind=kind,
            reason=reason[:200],
            created_by=created_by,
            round=round,
        )


@dataclass(frozen=True)
class Move:
    """One transfer of several made together (`transfer_all`)."""

    source: LedgerAccount
    destination: LedgerAccount
    amount: int
    kind: TransferKind
    reason: str = ""


def transfer_all(moves: list[Move], *, round: Round | None = None) -> None:
    """Make several transfers of one change, as `transfer` would, and record them in one statement.

    No savepoint: an InsufficientChips (or any error) must end the caller's whole
    transaction, which undoes the moves already made. Balances kept right as by `transfer`.
    The players' accounts change in primary-key order, as in `transfer`; the system
    accounts' (the house's: every stake and payout of every table) once each, by their net
    change, after them: at the end of this call, or of the caller's `atomic()` block.
    """
    records = []
    outer = _system_changes.get()
    # Inside a savepoint of the block, a change is made here: the savepoint may be rolled back alone.
    if outer is not None and len(transaction.get_connection().savepoint_ids) != outer[1]:
        outer = None
    system = {} if outer is None else outer[0]
    with transaction.atomic(savepoint=False):
        for move in moves:
            amount = _check_amount(move.amount)
            source, destination = move.source, move.destination
            if source.pk == destination.pk:
                raise LedgerError("A transfer needs two different accounts.")
            for account, change in sorted(((source, -amount), (destination, amount)), key=_by_pk):
                if account.kind in OVERDRAFT_KINDS:
                    _owe(system, account, change)
                elif change < 0:
                    _debit(account, -change)
                else:
                    _credit(account, change)
            records.append(
                rows.new(
                    Transfer, source_id=source.pk, destination_id=destination.pk, amount=amount, kind=move.kind,
                    reason=move.reason[:200], round_id=round.pk if round is not None else None,
                )
            )
        rows.insert(records)
        if outer is None:
            _settle(system)


# --- The system accounts' changes, made last ------------------------------------------
#
# Every stake and payout at every table moves chips to or from the one house account, and a
# database holds its row's lock from the UPDATE to the commit. Changed in the middle of a
# play, the house's row stayed locked through the play's later statements, and every other
# table's play waited for it: on PostgreSQL about a fifth of a play's time on its thread
# (docs/performance.md, "Twenty-second check"). Within `atomic()` the system accounts change
# once each, by their net change, as the block's last statement: the lock is held for that
# statement and the commit. No deadlock: a change takes a system account's row last, and
# then waits for nothing else (`transfer` takes its rows in primary-key order, as before).

# While an `atomic()` block runs: system account id -> [the account, its net change not made
# yet], and the block's depth of savepoints.
_system_changes: ContextVar[tuple[dict[int, list], int] | None] = ContextVar("ledger_system_changes", default=None)


@contextmanager
def atomic() -> Iterator[None]:
    """`transaction.atomic()` for a change that moves chips: `transfer_all`'s system account changes at its end.

    (`transfer` still makes its own at once.) An error in the block makes none (the transaction rolls back).
    """
    system: dict[int, list] = {}
    with transaction.atomic():
        token = _system_changes.set((system, len(transaction.get_connection().savepoint_ids)))
        try:
            yield
        finally:
            _system_changes.reset(token)
        _settle(system)


def _by_pk(pair: tuple[LedgerAccount, int]) -> int:
    return pair[0].pk


def _owe(system: dict[int, list], account: LedgerAccount, change: int) -> None:
    """Count a system account's change to be made later (its cached balance right now)."""
    account.balance += change
    owed = system.setdefault(account.pk, [account, 0])
    owed[1] += change


def _settle(system: dict[int, list]) -> None:
    """Make the system accounts' net changes, in primary-key order (they may go below zero)."""
    for pk, (account, change) in sorted(system.items()):
        if change and sql.execute(_CREDIT(), [change, pk]) != 1:
            raise LedgerError(f"{account.label} is not in the ledger.")


def _debit(account: LedgerAccount, amount: int) -> None:
    # SQL built once (casino.sql): a play's transfers are on its hot path.
    if account.kind in OVERDRAFT_KINDS:
        changed = sql.execute(_DEBIT_ANY(), [amount, account.pk])
    else:
        changed = sql.execute(_DEBIT_COVERED(), [amount, account.pk, amount])
    if changed != 1:
        raise InsufficientChips(f"{account.label} holds fewer than {amount} chips.")
    # Keeps an instance read in this transaction right without another query.
    account.balance -= amount


def _credit(account: LedgerAccount, amount: int) -> None:
    if sql.execute(_CREDIT(), [amount, account.pk]) != 1:
        raise LedgerError(f"{account.label} is not in the ledger.")
    account.balance += amount


# Statements a play repeats, built once (casino.sql).
_DEBIT_ANY = sql.statement(LedgerAccount, "UPDATE {table} SET {balance} = {balance} - %s WHERE {id} = %s")
_DEBIT_COVERED = sql.statement(
    LedgerAccount, "UPDATE {table} SET {balance} = {balance} - %s WHERE {id} = %s AND {balance} >= %s"
)
_CREDIT = sql.statement(LedgerAccount, "UPDATE {table} SET {balance} = {balance} + %s WHERE {id} = %s")
_CAP_CREDIT = sql.statement(LedgerAccount, "UPDATE {table} SET {credit} = {balance} WHERE {credit} > {balance} AND {id} IN (%s)")


# --- Player accounts ---------------------------------------------------------------


def bankroll_of(user: User) -> LedgerAccount:
    # SQL built once (casino.rows): every sit reads it.
    found = rows.select(LedgerAccount, "t0.kind = %s AND t0.user_id = %s", [AccountKind.BANKROLL.value, user.pk])
    if not found:
        raise LedgerAccount.DoesNotExist(f"{user} has no bankroll.")
    return found[0]


def open_bankroll(user: User) -> LedgerAccount:
    """Give a new user a bankroll and the sign-up grant, once."""
    with transaction.atomic():
        bankroll, created = LedgerAccount.objects.get_or_create(
            kind=AccountKind.BANKROLL, user=user, defaults={"label": fit_to_field(LedgerAccount, "label", f"{user.username}'s bankroll")}
        )
        if created and settings.SIGNUP_GRANT_CHIPS > 0:
            transfer(
                source=grants_account(),
                destination=bankroll,
                amount=settings.SIGNUP_GRANT_CHIPS,
                kind=TransferKind.SIGNUP_GRANT,
                reason="Welcome to the casino",
            )
    return bankroll


def open_seat_account(user: User, label: str) -> LedgerAccount:
    """A stack for one seat a player holds; it starts empty and is filled by buy_in."""
    return LedgerAccount.objects.create(kind=AccountKind.SEAT, user=user, label=fit_to_field(LedgerAccount, "label", label))


def buy_in(*, user: User, seat_account: LedgerAccount, amount: int) -> Transfer:
    """Sitting down: chips go from the player's bankroll to the seat's stack."""
    try:
        return transfer(
            source=bankroll_of(user),
            destination=seat_account,
            amount=amount,
            kind=TransferKind.BUY_IN,
            reason=f"Buy-in at {seat_account.label}",
        )
    except InsufficientChips:
        raise InsufficientChips(f"Your bankroll holds fewer than {amount} chips.") from None


def cash_out(*, seat_account: LedgerAccount) -> Transfer | None:
    """Leaving: the seat's outstanding top-up goes back to the grants account, the rest to the bankroll.

    Issue 14: the top-up is a loan to the seat, not a gift. Of the stack,
    min(credit, stack) repays it (kind TOP_UP_REPAID); winnings made with
    top-up chips are the player's. Returns the cash-out to the bankroll
    (None when nothing is left for it); the seat's credit is 0 afterwards.
    """
    seat_account.refresh_from_db(fields=["balance", "credit"])
    repaid = min(seat_account.credit, seat_account.balance)
    if repaid > 0:
        transfer(
            source=seat_account,
            destination=grants_account(),
            amount=repaid,
            kind=TransferKind.TOP_UP_REPAID,
            reason=f"Top-up repaid from {seat_account.label}",
        )
    if seat_account.credit:
        # Whatever the stack could not repay was lost at the table: the loan ends with the seat.
        LedgerAccount.objects.filter(pk=seat_account.pk).update(credit=0)
        seat_account.credit = 0
    if seat_account.balance == 0:
        return None
    reason = f"Cash-out from {seat_account.label}"
    if repaid:
        reason += f", after repaying its {repaid:,}-chip top-up"
    return transfer(
        source=seat_account,
        destination=bankroll_of(seat_account.user),
        amount=seat_account.balance,
        kind=TransferKind.CASH_OUT,
        reason=reason,
    )


def top_up(
    *, seat_account: LedgerAccount, amount: int | None = None, round: Round | None = None, read: bool = False
) -> Transfer | None:
    """DESIGN.md: a seat holding less than 1 chip as a betting window opens gets 100 chips, as a loan.

    The chips become the seat's credit (repaid first at cash_out). Returns
    None, moving nothing, when the seat still holds chips. read=True: the
    instance's balance and credit were read in this transaction under its
    table's lock (which keeps them still), so they are not read again.
    """
    if not read:
        seat_account.refresh_from_db(fields=["balance", "credit"])
    due = top_up_due(seat_account)
    if not due:
        return None
    amount = due if amount is None else amount
    made = transfer(
        source=grants_account(),
        destination=seat_account,
        amount=amount,
        kind=TransferKind.TOP_UP,
        reason=f"Top-up at {seat_account.label} (a loan, repaid when the seat cashes out)",
        round=round,
    )
    # A seat holding nothing has no credit left (cap_credit), so the new loan is the whole credit.
    LedgerAccount.objects.filter(pk=seat_account.pk).update(credit=amount)
    seat_account.credit = amount
    return made


def top_up_due(seat_account: LedgerAccount) -> int:
    """The chips `top_up` would lend the seat now (its balance as the instance holds it): 0 while it holds 1 or more."""
    return settings.TOP_UP_CHIPS if seat_account.balance < 1 else 0


def cap_credit(accounts: list[LedgerAccount]) -> None:
    """A settled round: each seat's credit is at most its stack (top-up chips lost at the table are gone).

    `accounts` were read in this transaction under their table's lock, and kept right by the transfers since:
    only those holding credit above their stack are written, in one UPDATE (none in most rounds).
    """
    over = [account for account in accounts if account.credit > account.balance]
    if over:
        places = ", ".join(["%s"] * len(over))
        sql.execute(_CAP_CREDIT().replace("(%s)", f"({places})"), [account.pk for account in over])
    for account in over:
        account.credit = account.balance


def admin_adjust(*, user: User, amount: int, reason: str, admin: User) -> Transfer:
    """An admin grant (amount > 0) or correction (amount < 0) of a bankroll.

    Never an edit of a balance: a transfer with the grants account, a reason
    and the admin's name, like every other movement.
    """
    reason = reason.strip()
    if not reason:
        raise LedgerError("Say why: a grant or correction needs a reason.")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0:
        raise LedgerError("The amount must be a whole number of chips other than 0.")
    bankroll = bankroll_of(user)
    if amount > 0:
        return transfer(
            source=grants_account(),
            destination=bankroll,
            amount=amount,
            kind=TransferKind.ADMIN_GRANT,
            reason=reason,
            created_by=admin,
        )
    try:
        return transfer(
            source=bankroll,
            destination=grants_account(),
            amount=-amount,
            kind=TransferKind.CORRECTION,
            reason=reason,
            created_by=admin,
        )
    except InsufficientChips:
        raise InsufficientChips(
            f"{user.username}'s bankroll holds {bankroll.balance} chips; a correction cannot take {-amount}."
        ) from None

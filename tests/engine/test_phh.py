"""PHH hand histories: reading, writing, PokerKit compatibility and round trips."""

from __future__ import annotations

import dataclasses
import random
import re
import warnings
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import phh
from bot.engine.cards import Deck, card
from bot.engine.events import Event, HandShown, ShowRequested
from bot.engine.hand import Action, Hand, LegalActions, SeatIn
from bot.engine.phh import (
    BoardDeal,
    HandError,
    HandHistory,
    HoleDeal,
    PHHError,
    PlayerAction,
    Show,
    parse_action,
)
from bot.engine.phh.toml_text import fast_toml
from bot.engine.variants import VARIANTS, GameConfig, Structure

DATA = Path(__file__).parent / "data"


def _pokerkit_loads(text: str) -> object:
    from pokerkit import HandHistory as PKHandHistory

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an unexpected field would warn
        return PKHandHistory.loads(text)


# --- actions ---------------------------------------------------------------


def test_actions_are_read_with_their_cards_and_amounts() -> None:
    """Every Omaha action of PHH reads into a typed record (players 0-based)."""
    assert parse_action("d dh p1 AsKd??Qh") == HoleDeal(
        0, (card("As"), card("Kd"), None, card("Qh"))
    )
    assert parse_action("d db Ah9s2d # flop") == BoardDeal((card("Ah"), card("9s"), card("2d")))
    assert parse_action("p3 f") == PlayerAction(2, "f")
    assert parse_action("p2 cc") == PlayerAction(1, "cc")
    assert parse_action("p10 cbr 1,500") == PlayerAction(9, "cbr", 1500)
    assert parse_action("p1 sm AsKsQhJh") == Show(0, tuple(map(card, ("As", "Ks", "Qh", "Jh"))))
    assert parse_action("p1 sm") == Show(0, None)
    assert parse_action("# just a comment") is None


@pytest.mark.parametrize(
    "bad",
    ["p0 f", "x1 f", "p1 cbr ten", "p1 cbr 0", "d db ????", "d dh p1 AsK", "p1 raise 5", "p1 sd"],
)
def test_unreadable_actions_are_hand_errors(bad: str) -> None:
    """An action that cannot be read makes that hand an error, with a readable reason."""
    with pytest.raises(HandError):
        parse_action(bad)


# --- reading ---------------------------------------------------------------


def test_pokerkit_written_files_load() -> None:
    """Files written by PokerKit's own writer (.phh and .phhs) load in ours."""
    one = phh.load_path(DATA / "pokerkit_po_3handed.phh")
    many = phh.load_path(DATA / "pokerkit_po.phhs")
    assert len(one) == 1 and len(many) == 2
    hand = one[0]
    assert hand == many[0]
    assert hand.variant == "PO"
    assert hand.blinds_or_straddles == (1, 2, 0)
    assert hand.min_bet == 2
    assert hand.starting_stacks == (200, 150, 300)
    assert hand.finishing_stacks == (138, 219, 293)
    assert hand.actions[3] == "p3 cbr 7"
    assert many[1].starting_stacks == (100, 80)


@pytest.mark.parametrize(
    "text",
    [
        "variant = 'PO'\nantes = [0, 0]",  # no actions, no stacks
        "variant = 'PO'\nantes = [0, 0]\nstarting_stacks = [1, 2]\nactions = 'p1 f'",
        "variant = 'PO'\nantes = 'none'\nstarting_stacks = [1, 2]\nactions = []",
        "variant = \n",
        "title = 'hello'",
        "[1]\nvariant = 'PO'\n[2]\nfoo = 1",
        "",
    ],
)
def test_text_that_is_not_phh_is_unreadable(text: str) -> None:
    """Bad TOML or a record without the required PHH fields cannot be read."""
    with pytest.raises(PHHError):
        phh.loads_all(text)


def test_fractional_chips_are_a_problem_of_that_hand_only() -> None:
    """Amounts with fractions are readable PHH but mark the hand as not replayable."""
    text = (
        "variant = 'PO'\nantes = [0, 0]\nblinds_or_straddles = [500, 1000]\nmin_bet = 1000\n"
        "starting_stacks = [1259450.25, 678473.5]\nactions = []\n"
    )
    hand = phh.loads(text)
    assert hand.problem is not None and "whole chips" in hand.problem


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    """A path that does not exist raises PHHError with the path in the message."""
    with pytest.raises(PHHError, match=r"nope\.phh"):
        phh.load_path(tmp_path / "nope.phh")


# --- writing ---------------------------------------------------------------


def _sample() -> HandHistory:
    return HandHistory(
        variant="PO/8",
        antes=(1, 1, 1),
        blinds_or_straddles=(1, 2, 0),
        min_bet=2,
        starting_stacks=(100, 90, 80),
        actions=("d dh p1 AsKsQsJsTs", "d dh p2 2c3c4c5c6c", "d dh p3 ??????????", "p3 f"),
        finishing_stacks=(99, 93, 79),
        seats=(2, 5, 7),
        players=('Ann "the rock"', "Bo", "Cé"),
        hole_cards=5,
        courchevel=True,
        extra=(("hand", 12), ("_table", "Main table")),
    )


def test_writer_is_deterministic_and_reads_back_the_same() -> None:
    """dumps() gives the same text every time and loads() returns an equal record."""
    hand = _sample()
    text = phh.dumps(hand)
    assert text == phh.dumps(hand)
    back = phh.loads(text)
    assert back == hand
    assert back.extra == hand.extra
    assert phh.dumps(back) == text
    assert text.splitlines()[0] == 'variant = "PO/8"'
    assert '  "p3 f",' in text.splitlines()


def test_multi_hand_files_round_trip() -> None:
    """dumps_all() writes [1], [2], ... tables that loads_all() reads back in order."""
    a = _sample()
    b = HandHistory(
        variant="FO",
        antes=(0, 0),
        blinds_or_straddles=(1, 2),
        small_bet=2,
        big_bet=4,
        starting_stacks=(50, 60),
        actions=("d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "p2 f"),
    )
    text = phh.dumps_all([a, b])
    assert text.startswith("[1]\n")
    assert phh.loads_all(text) == [a, b]


def test_our_files_load_in_pokerkit() -> None:
    """PokerKit's loader reads our output without warnings, with the same fields."""
    hand = _sample()
    loaded = _pokerkit_loads(phh.dumps(hand))
    assert loaded.variant == "PO/8"  # type: ignore[attr-defined]
    assert list(loaded.starting_stacks) == [100, 90, 80]  # type: ignore[attr-defined]
    assert list(loaded.actions) == list(hand.actions)  # type: ignore[attr-defined]
    assert loaded.players == list(hand.players or ())  # type: ignore[attr-defined]
    assert loaded.user_defined_fields == {  # type: ignore[attr-defined]
        "_table": "Main table",
        "_hole_cards": 5,
        "_courchevel": True,
    }


# --- replay and round trips -------------------------------------------------


def random_config(rng: random.Random, variant_key: str, structure: Structure) -> GameConfig:
    """A game with random blinds and (sometimes) an ante."""
    variant = VARIANTS[variant_key]
    big = rng.choice([2, 4, 10, 20])
    ante = rng.choice([0, 0, 0, 1, big // 2])
    if structure is Structure.FIXED_LIMIT:
        return GameConfig.fixed_limit(variant, big, ante)
    return GameConfig(variant, structure, big // 2, big, ante)


def random_seats(rng: random.Random, config: GameConfig, players: int) -> tuple[list[SeatIn], int]:
    """Random seat numbers, stacks from very short to deep, sometimes a newcomer's big blind.

    A newcomer is never flagged on the big blind's own seat (the flag means nothing there).
    """
    numbers = sorted(rng.sample(range(1, 11), players))
    button = rng.choice(numbers)
    clockwise = sorted(numbers, key=lambda s: (s <= button, s))
    big = config.big_blind
    seats = []
    for seat in numbers:
        stack = rng.choice([1, big, 3 * big, 10 * big, 40 * big, 100 * big]) + rng.randrange(big)
        position = clockwise.index(seat)
        newcomer = position != (0 if players == 2 else 1) and rng.random() < 0.08
        seats.append(SeatIn(seat, stack, posts_big_blind=newcomer))
    return seats, button


def random_action(rng: random.Random, legal: LegalActions) -> Action:
    """Any legal action, with bets from the minimum to the maximum."""
    roll = rng.random()
    if roll < 0.12:
        return Action.fold()
    if legal.min_raise_to is not None and legal.max_raise_to is not None and roll < 0.45:
        lo, hi = legal.min_raise_to, legal.max_raise_to
        return Action.raise_to(rng.choice([lo, hi, rng.randint(lo, hi)]))
    if roll < 0.5 and legal.max_raise_to is not None and legal.all_in_to <= legal.max_raise_to:
        return Action.all_in()
    return Action.call()


def play_random_hand(rng: random.Random, config: GameConfig, players: int) -> Hand:
    """A whole hand of random legal actions (owners sometimes ask to show)."""
    seats, button = random_seats(rng, config, players)
    hand = Hand(config, seats, button, Deck(rng=rng))
    hand.start()
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if rng.random() < 0.05:
            hand.request_show(legal.seat)
        hand.act(legal.seat, random_action(rng, legal))
    return hand


def public_events(events: Sequence[Event]) -> list[Event]:
    """Events without show requests (PHH records the show, not when it was asked for)."""
    return [e for e in events if not isinstance(e, ShowRequested)]


STRUCTURES = list(Structure)


@pytest.mark.parametrize("structure", STRUCTURES, ids=[s.letter for s in STRUCTURES])
@pytest.mark.parametrize("variant_key", list(VARIANTS))
def test_round_trip_replays_the_same_hand(variant_key: str, structure: Structure) -> None:
    """Write a finished hand, read it back, replay it: same final stacks and events."""
    rng = random.Random(f"{variant_key}-{structure}")
    for _ in range(12):
        config = random_config(rng, variant_key, structure)
        hand = play_random_hand(rng, config, rng.randint(2, config.max_seats))
        record = phh.history_of(hand.events)
        text = phh.dumps(record)
        back = phh.loads(text)
        assert back == record
        again = phh.replay(back)
        assert again.finishing_stacks == record.finishing_stacks
        assert public_events(again.hand.events) == public_events(hand.events)
        assert phh.dumps(phh.history_of(again.hand.events)) == text


@pytest.mark.parametrize(
    ("name", "stacks"),
    [
        ("po_steal.phh", (99, 93, 108)),
        ("unknown_folded.phh", (99, 93, 108)),
        ("unknown_showdown.phh", (99, 108, 93)),
        ("courchevel_hilo_fl.phh", (102, 102, 96)),
        ("pokerkit_po_3handed.phh", (138, 219, 293)),
        ("pokerkit_idle_check.phh", (99, 48, 5)),
    ],
)
def test_fixtures_replay_to_their_final_stacks(name: str, stacks: tuple[int, ...]) -> None:
    """Hand-checked fixtures (and PokerKit's own) replay to the stacks worked out by hand."""
    (record,) = phh.load_path(DATA / name)
    assert phh.replay(record).finishing_stacks == stacks == record.finishing_stacks


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("illegal_raise.phh", "action 4 (p3 cbr 8): the most you can raise to is 7"),
        ("stops_early.phh", "the actions stop before the end of the hand (p3 to act)"),
        ("card_twice.phh", "action 7 (d db 2s7hAs): a card is dealt that was already dealt"),
        ("unknown_could_win.phh", "p3's hole cards are unknown (??) and could win at the showdown"),
    ],
)
def test_broken_hands_are_errors_with_the_action_and_reason(name: str, message: str) -> None:
    """Illegal, unfinished, card-twice and unknown-at-showdown hands name what is wrong."""
    (record,) = phh.load_path(DATA / name)
    with pytest.raises(HandError) as caught:
        phh.replay(record)
    assert str(caught.value) == message


def _po_steal() -> HandHistory:
    (record,) = phh.load_path(DATA / "po_steal.phh")
    return record


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"variant": "NS"}, "variant 'NS' is not a game of ours"),
        ({"variant": "NT/8"}, "there is no 2-card Texas Hold'em hi-lo game"),
        ({"variant": "PO/8", "hole_cards": 6}, "there is no 6-card Omaha hi-lo game"),
        ({"antes": (1, 0, 0)}, "every player posts the same ante"),
        ({"blinds_or_straddles": (1, 2, 8)}, "the only straddle played here is twice the big"),
        ({"min_bet": 4}, "min_bet must equal the big blind"),
        ({"seats": (5, 2, 7)}, "seats must go clockwise"),
        ({"actions": ("d dh p1 AsAhKsKh", "p2 f")}, "action 2 (p2 f): it is p3's turn"),
        ({"actions": ("d dh p4 AsAhKsKh",)}, "action 1 (d dh p4): there is no player p4"),
        ({"actions": ("d dh p1 AsAhKsK",)}, "action 1 (d dh p1): the hole cards cannot be read"),
        (
            {"actions": (*_po_steal().actions, "p1 cc")},
            "action 11 (p1 cc): the hand is already over",
        ),
        (
            {"actions": ("p3 cbr 7", "d db 2s7hJc")},
            "action 2 (d db 2s7hJc): the board is dealt while the betting is open (p1 to act)",
        ),
        (
            {"actions": ("p3 cc", "p1 cc", "p2 cc", "p1 cc")},
            "action 4 (p1 cc): the history skips board cards the hand has dealt",
        ),
    ],
)
def test_records_that_are_not_our_game_are_hand_errors(
    change: dict[str, object], message: str
) -> None:
    """Unknown variants, straddles, odd antes, bad seats and out-of-turn actions are refused."""
    record = dataclasses.replace(_po_steal(), **change)  # type: ignore[arg-type]
    with pytest.raises(HandError, match=re.escape(message)):
        phh.replay(record)


def test_pokerkit_replays_our_files_to_the_same_stacks() -> None:
    """PokerKit's loader replays our written pot-limit Omaha hands to the same final stacks."""
    for name in ("po_steal.phh", "unknown_folded.phh"):
        (record,) = phh.load_path(DATA / name)
        ours = phh.history_of(phh.replay(record).hand.events)
        states = list(_pokerkit_loads(phh.dumps(ours)))  # type: ignore[call-overload]
        assert tuple(states[-1].stacks) == ours.finishing_stacks == record.finishing_stacks


@pytest.mark.parametrize(
    "text",
    [
        'a = 1\nb = "x, y]"\nc = [1, -2, 0]\nd = true\ne = []\n',
        'actions = [\n  "p1 cc # fine",\n  "d db AsKd",\n]\nn = "é"\n',
        "[1]\nx = 1\n\n[2]\nx = 2\n",
        'a = "x" # comment\n',
        'a = "q\\"uote"\n',
        "a = 1.5\n",
        "a = 01\n",
        "a=1\n",
        "a = 1\na = 2\n",
        'p = ["a, b", "c"]\n',
        'actions = [\n  "p1 cc"\n]\n',
        'actions = [\n  "p1 cc",  # note\n]\n',
        "a = [[1], [2]]\n",
        "a.b = 1\n",
        "a = 'literal'\n",
        "[1]\nx = 1\n[1]\ny = 2\n",
        "a = [1, 2\n",
        'actions = [\n  "p1 cc",\n',
    ],
)
def test_fast_reader_agrees_with_tomllib_or_steps_aside(text: str) -> None:
    """The fast path reads our writer's TOML subset exactly as tomllib does, else defers."""
    import tomllib

    fast = fast_toml(text)
    try:
        slow: object = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        slow = None
    assert fast is None or fast == slow


def test_fast_reader_reads_what_we_write() -> None:
    """Records we write take the fast path and read back as tomllib reads them."""
    import tomllib

    rng = random.Random(5)
    for key in VARIANTS:
        config = random_config(rng, key, Structure.POT_LIMIT)
        hand = play_random_hand(rng, config, rng.randint(2, config.max_seats))
        record = phh.history_of(hand.events)
        text = phh.dumps_all([record, dataclasses.replace(_sample(), players=("Ann", "Bo", "Cé"))])
        assert fast_toml(text) == tomllib.loads(text)
        assert phh.loads_all(text)[0] == record
    escaped = phh.dumps(_sample())  # a name with quotes: tomllib reads it
    assert fast_toml(escaped) is None
    assert phh.loads(escaped) == _sample()


def test_unknown_cards_shown_at_showdown_are_used() -> None:
    """Hole cards dealt as ???????? but shown at showdown are the cards replayed."""
    (record,) = phh.load_path(DATA / "unknown_showdown.phh")
    shown = dataclasses.replace(record, actions=(*record.actions[:-1], "p3 sm 7c8c9dTd"))
    # Board 2s 7h Jc 9s Qd: p3's 7c8c9dTd makes a straight, p2's 2c3c4d5d nothing.
    assert phh.replay(shown).finishing_stacks == (99, 93, 108)
    wrong = dataclasses.replace(record, actions=(*record.actions[:-1], "p3 sm 7c8c9d2s"))
    with pytest.raises(HandError, match="p3 shows a card that was dealt elsewhere"):
        phh.replay(wrong)


def test_public_histories_hide_unshown_hands_and_still_replay() -> None:
    """public=True writes ?? for hands never shown; the record replays to the same stacks."""
    rng = random.Random("public")
    replayed = refused = 0
    for _ in range(300):
        key = rng.choice(list(VARIANTS))
        config = random_config(rng, key, rng.choice(STRUCTURES))
        hand = play_random_hand(rng, config, rng.randint(2, config.max_seats))
        record = phh.history_of(hand.events, public=True)
        shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
        text = phh.dumps(record)
        for seat in hand.seat_order:
            cards = "".join(map(str, hand.hole(seat)))
            assert (cards in text) == (seat in shown)
        try:
            again = phh.replay(phh.loads(text))
        except HandError as exc:  # the weakest cards left could still win: refused, never wrong
            assert "could win at the showdown" in str(exc)
            refused += 1
            continue
        assert again.finishing_stacks == record.finishing_stacks
        replayed += 1
    assert refused <= 6 and replayed + refused == 300


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    variant_key=st.sampled_from(sorted(VARIANTS)),
    structure=st.sampled_from(STRUCTURES),
    public=st.booleans(),
)
def test_property_written_phh_replays_to_the_same_result(
    seed: int, variant_key: str, structure: Structure, public: bool
) -> None:
    """Any random hand, written as PHH (full or public), replays to the same final stacks."""
    rng = random.Random(seed)
    config = random_config(rng, variant_key, structure)
    hand = play_random_hand(rng, config, rng.randint(2, config.max_seats))
    record = phh.history_of(hand.events, public=public)
    try:
        again = phh.replay(phh.loads(phh.dumps(record)))
    except HandError as exc:
        assert public and "could win at the showdown" in str(exc)
        return
    assert again.finishing_stacks == record.finishing_stacks
    assert again.finishing_stacks == tuple(hand.result.final_stacks[s] for s in hand.seat_order)
    if not public:
        assert public_events(again.hand.events) == public_events(hand.events)


def test_only_a_check_that_cannot_matter_is_skipped() -> None:
    """PokerKit's extra check by a player nobody could answer is a no-op; a bet there is not."""
    (record,) = phh.load_path(DATA / "pokerkit_idle_check.phh")
    assert record.actions[5] == "p2 cc"
    betting = dataclasses.replace(
        record, actions=(*record.actions[:5], "p2 cbr 4", *record.actions[6:])
    )
    with pytest.raises(HandError, match=re.escape("action 6 (p2 cbr 4): the hand is already over")):
        phh.replay(betting)
    folded = dataclasses.replace(
        record, actions=(*record.actions[:4], "p1 cc", "p2 cc", "p1 cc", *record.actions[6:])
    )
    with pytest.raises(HandError, match=re.escape("action 7 (p1 cc)")):
        phh.replay(folded)


def test_reprs_never_show_hole_cards() -> None:
    """A record's repr and a hole deal's repr keep the cards out of logs."""
    (record,) = phh.load_path(DATA / "po_steal.phh")
    assert "AsAhKsKh" not in repr(record) and "As" not in repr(record)
    deal = parse_action("d dh p1 AsAhKsKh")
    assert "As" not in repr(deal)
    assert "As" not in repr(phh.replay(record))


def test_short_or_single_amount_lists_read_as_pokerkit_reads_them() -> None:
    """antes = 1 means every player antes 1; missing list entries are 0."""
    text = (DATA / "po_steal.phh").read_text()
    uniform = phh.loads(text.replace("antes = [0, 0, 0]", "antes = 1"))
    assert uniform.antes == (1, 1, 1)
    assert phh.setup_of(uniform).config.ante == 1
    short = phh.loads(text.replace("antes = [0, 0, 0]", "antes = [0]"))
    assert phh.replay(short).finishing_stacks == (99, 93, 108)
    one_ante = phh.loads(text.replace("antes = [0, 0, 0]", "antes = [2]"))
    with pytest.raises(HandError, match="every player posts the same ante"):
        phh.replay(one_ante)


def test_golden_file_of_every_game_replays_and_rewrites_byte_for_byte() -> None:
    """63 recorded hands (7 variants x 3 structures x 2/3/6 players) replay, rewrite exactly."""
    text = (DATA / "all_games.phhs").read_text()
    records = phh.loads_all(text)
    assert len(records) == 63
    assert {(r.variant, r.hole_cards, r.courchevel) for r in records} == {
        (s + "O" + h, n, c)
        for s in "PNF"
        for h, n, c in [("", None, False), ("/8", None, False), ("", 5, False), ("/8", 5, False),
                        ("", 6, False), ("", 5, True), ("/8", 5, True)]
    }
    again = [phh.replay(r) for r in records]
    assert [r.finishing_stacks for r in again] == [r.finishing_stacks for r in records]
    rewritten = [
        phh.history_of(r.hand.events, extra=record.extra)
        for r, record in zip(again, records, strict=True)
    ]
    assert phh.dumps_all(rewritten) == text

"""The contract every game passes, parameterised over every game kind (``tests/contract/games/``).

Each game is played at random with seeded dice, a few games a kind, and every state on the way is checked: state
and actions round-trip through JSON; replaying the log rebuilds every state; what ``legal_actions`` offers is
accepted and anything else refused with a reason a player can read; a secret reaches its owner only (through
``viewer_of``, as the core maps a member to their seat); every board, public or private, fits Discord's limits;
every control on a board decodes to an action of the game; a restart in the middle (the state read back from
its stored JSON) changes nothing; and the luck a game reports is of its own players and dice.
"""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from pydantic import BaseModel

from bot.controls import CUSTOM_ID_MAX, decode_action, parse_action_id
from bot.models import MAIN_VIEW, roles_of, viewer_of
from bot.replay import fold
from bot.spec import ANY_ACTION
from localdiscord.responses import DiscordError
from localdiscord.validation import check_message
from rules.dice import ReplayDice, Roll, SeededDice
from rules.engine import CO_GM, GM, PUBLIC, HiddenInformation, IllegalAction, Viewer, visible
from tests.contract.drawing import wire
from tests.contract.games import GAMES
from tests.contract.kit import Game
from tests.contract.play import Played, play
from tests.contract.secrecy import check_secret, secrets

CORE_KEYS = {"undo", "redo", "rematch", "private", "confirm_end", "confirm_leave"}
DRAW_EVERY = 3
"""Boards are drawn at every third state (and the last): drawing is the suite's costly part."""
MAX_REASON = 400

cases = pytest.mark.parametrize(("game", "seed"), [(g, s) for g in GAMES for s in range(g.games)], ids=str)


@functools.cache
def played(game: Game, seed: int) -> Played:
    """Each game is played once and checked by every test (the same seed plays the same game)."""
    return play(game, seed)


@cases
def test_state_and_actions_round_trip_through_json(game: Game, seed: int) -> None:
    p = played(game, seed)
    engine = game.kind.engine
    assert p.steps, f"{game}: no action was accepted"
    options = game.kind.parse_options(json.loads(json.dumps(p.table.session.engine_options)))
    assert options == p.table.options
    for state in p.states:
        assert engine.state_model.model_validate_json(state.model_dump_json()) == state
    for step in p.steps:
        action = engine.parse_action(step.action)
        assert engine.parse_action(json.loads(action.model_dump_json())) == action
        json.dumps(step.events)  # events are JSON, as the log stores them


@cases
def test_replaying_the_log_rebuilds_every_state(game: Game, seed: int) -> None:
    p = played(game, seed)
    options = p.table.session.engine_options
    assert fold(game.kind, options, p.log[:1]).state == p.start
    for before, entry, step in zip(p.states[:-1], p.log[1:], p.steps, strict=True):
        assert fold(game.kind, options, [entry], start=before).state == step.state
    assert fold(game.kind, options, p.log).state == p.states[-1]


@cases
def test_legal_actions_are_accepted_and_others_refused_with_a_reason(game: Game, seed: int) -> None:
    p = played(game, seed)
    for _, data, reason in p.refused:
        if reason:  # an IllegalAction; a ValidationError is answered by naming the field
            assert 0 < len(reason) <= MAX_REASON and "Traceback" not in reason and " object at 0x" not in reason, data
    turns = game.kind.turns
    if turns is None:
        assert p.refused and p.steps  # random moves of an open session: some taken, some refused
        return
    for state in p.states[::DRAW_EVERY]:
        for prompt in turns.prompts(state):
            legal = turns.legal_actions(state, prompt.player)
            assert legal and turns.default_action(state, prompt.player) in legal
            for action in [a for a in p.universe if a not in legal][:12]:
                _refused_or_offered(game, state, prompt.player, action, legal)


def _refused_or_offered(game: Game, state: BaseModel, player: str, action: BaseModel, legal: Sequence[Any]) -> None:
    """An action ``legal_actions`` doesn't offer is refused with a reason, unless it is the very move one offered
    action makes (a shortcut: "give every new die to P3" when there is one new die)."""
    engine = game.kind.engine
    try:
        taken = engine.apply(state, player, action, SeededDice(1)).state
    except IllegalAction as refused:
        assert 0 < len(refused.reason) <= MAX_REASON
        return
    offered = [engine.apply(state, player, a, SeededDice(1)).state for a in legal]
    assert taken in offered, f"{game}: {player} {action!r} was accepted but not offered"


def _viewers(p: Played) -> list[Viewer]:
    return [viewer_of(p.table.session, member) for member in p.table.members]


@cases
def test_a_secret_reaches_its_owner_only(game: Game, seed: int) -> None:
    """A secret event reaches the members it is ``only`` for (the member in that seat, the GM) and no one else;
    a state drawn for a member (``viewer_of``) shows the secrets they own and none of anyone else's."""
    p = played(game, seed)
    kind, session = game.kind, p.table.session
    # Who each member is to the game, said here without the core: the player of their seat, else their user id.
    seats = {s.user_id: s.player for s in session.seats}
    members = [
        (viewer_of(session, m), seats.get(m.user_id, str(m.user_id)), roles_of(session, m)) for m in p.table.members
    ]
    secrets = 0
    for state, events in [(p.start, p.start_events), *((s.state, s.events) for s in p.steps)]:
        for event in [e for e in events if e.get("only")]:
            secrets += 1
            only = set(event["only"]) | ({CO_GM} if GM in event["only"] else set())
            assert not visible(event, PUBLIC)
            for viewer, me, roles in members:
                assert visible(event, viewer) == (me in only or bool(roles & only)), (event, me)
        for owner in game.owners(state):
            secrets += 1
            assert game.shows(state, owner) and not game.shows(kind.view(state, PUBLIC), owner)
            for viewer, me, roles in members:
                assert game.shows(kind.view(state, viewer), owner) == (me == owner or owner in roles), (owner, me)
    hides = isinstance(kind.engine, HiddenInformation)
    assert (secrets > 0) == hides, f"{game}: {secrets} secrets, though it {'hides' if hides else 'shows'} everything"


@cases
def test_what_a_view_hides_reaches_its_viewer_nowhere(game: Game, seed: int) -> None:
    """A die or a typed value someone's view of the state hides, changed, changes nothing that reaches them until
    their view shows it: events, narration, news, boards, luck statistics, exports, a computer's choice in their
    seat, log lines (``tests/contract/secrecy.py``)."""
    p = played(game, seed)
    found = secrets(p)
    hides = isinstance(game.kind.engine, HiddenInformation)
    assert bool(found) == hides or (hides and not _hidden_anywhere(p)), f"{game}: {len(found)} secrets changed"
    for change, blind in found:
        check_secret(p, change, blind)


def _hidden_anywhere(p: Played) -> bool:
    """Whether any state of the game hides something from the channel."""
    kind = p.game.kind
    return any(kind.view(state, PUBLIC) != state for state in p.states)


def _boards(p: Played) -> list[tuple[BaseModel, list[dict[str, Any]], Viewer, str]]:
    """Every board the suite draws: each view of every third state, for the channel and each member."""
    states = list(zip(p.states, [p.start_events, *(s.events for s in p.steps)], strict=True))
    sampled = [*states[::DRAW_EVERY], states[-1]]
    return [
        (state, events, viewer, view)
        for state, events in sampled
        for view in p.game.views(state)
        for viewer in [PUBLIC, *_viewers(p)]
    ]


@cases
def test_every_board_fits_discords_limits(game: Game, seed: int) -> None:
    p = played(game, seed)
    for state, events, viewer, view in _boards(p):
        body = wire(p, state, events, viewer, view)
        try:
            check_message(body)
        except DiscordError as exc:  # pragma: no cover - the message says what broke
            raise AssertionError(f"{game} {view} for {viewer}: {exc}: {body}") from exc


def _controls(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for row in components for c in row.get("components", [row]) if "custom_id" in c]


@cases
def test_every_control_on_a_board_decodes_to_an_action(game: Game, seed: int) -> None:
    p = played(game, seed)
    engine, session = game.kind.engine, p.table.session
    controls = 0
    for state, events, viewer, view in _boards(p):
        for control in _controls(wire(p, state, events, viewer, view)["components"]):
            controls += 1
            custom_id = control["custom_id"]
            assert len(custom_id) <= CUSTOM_ID_MAX
            namespace, _, rest = custom_id.partition(":")
            if namespace in ("a", "m"):
                route = parse_action_id(rest)
                assert route.session_id == session.id
                values = [o["value"] for o in control.get("options", [])]
                if route.action.partition(";")[0] == ANY_ACTION:
                    actions = [decode_action(v) for v in values]
                else:
                    actions = [decode_action(route.action, values)]
                for action in actions:
                    engine.parse_action(action)  # raises if the control takes no action of this game
            elif namespace == "c":
                assert rest.split(":")[1] in CORE_KEYS
            else:
                assert namespace == "u" and rest.split(":")[:2] == [session.kind, str(session.id)], custom_id
    assert controls, f"{game}: no board had a control"


@cases
def test_a_restart_in_the_middle_changes_nothing(game: Game, seed: int) -> None:
    """The bot restarted halfway: the state is read back from the JSON it stored, and the same actions with the
    same dice lead to the same states, events and boards."""
    p = played(game, seed)
    engine = game.kind.engine
    middle = len(p.steps) // 2
    state = engine.state_model.model_validate_json(p.states[middle].model_dump_json())
    for viewer in [PUBLIC, *_viewers(p)]:
        assert wire(p, state, [], viewer, MAIN_VIEW) == wire(p, p.states[middle], [], viewer, MAIN_VIEW)
    for entry, step in zip(p.log[middle + 1 :], p.steps[middle:], strict=True):
        dice = ReplayDice(Roll.model_validate(r) for r in entry.dice)
        assert entry.actor is not None
        outcome = engine.apply(state, entry.actor, engine.parse_action(step.action), dice)
        assert dice.exhausted and outcome.events == step.events
        state = engine.state_model.model_validate_json(outcome.state.model_dump_json())
        assert state == step.state


@cases
def test_the_luck_a_game_reports_is_of_its_players_and_its_own_dice(game: Game, seed: int) -> None:
    """``Rollers`` names only dice the action rolled (each at most as often) and only seated players (an open
    session's members, who play as their user ids); ``ScoreLuck`` reports seated players, whole turns and points,
    and a finite luck with a variance that is never negative."""
    p = played(game, seed)
    seated = set(p.table.players) or {str(m.user_id) for m in p.table.members}
    for entry in p.log:
        if game.kind.rollers is not None:
            rolled = Counter(str(d["die"]) for d in entry.dice)
            named = game.kind.rollers.rollers(entry.events)
            assert not Counter(die for _, die in named) - rolled, (named, entry.dice)
            assert {player for player, _ in named} <= seated
        if game.kind.score_luck is not None:
            for turn in game.kind.score_luck.score_luck(p.table.options, entry.events):
                assert turn.player in seated and turn.turns >= 0 and turn.points >= 0
                assert math.isfinite(turn.luck) and turn.variance >= 0


@cases
def test_the_places_a_game_gives_rank_its_winners_first(game: Game, seed: int) -> None:
    """``Places`` (for ratings) says nothing while the game goes on; at its end it places seated players only, its
    winners first, every place from 1 on."""
    ranks = game.kind.places
    seats = game.kind.seats
    if ranks is None or seats is None:
        return
    p = played(game, seed)
    for state in p.states:
        winners = seats.winners(state)
        placed = ranks.places(state)
        if winners is None:
            assert placed is None
            continue
        assert placed is not None and set(placed) <= set(p.table.players)
        assert all(placed[w] == 1 for w in winners) and min(placed.values()) == 1

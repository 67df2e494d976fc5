import json
from pathlib import Path

import pytest

from tablecam.errors import EventLogError
from tablecam.events import Play, event_from_json, event_to_dict, parse_event_lines, read_events

GOLDEN = Path(__file__).parent / "data" / "game-events.jsonl"


def test_every_event_of_the_reference_game_round_trips() -> None:
    lines = [line for line in GOLDEN.read_text().splitlines() if line.strip()]
    events = read_events(GOLDEN)
    assert len(events) == len(lines)
    for line, event in zip(lines, events, strict=True):
        assert event_to_dict(event) == json.loads(line)


def test_play_fields_are_parsed() -> None:
    event = event_from_json('{"t": 5.5, "round": 1, "type": "play", "player": "B", '
                            '"card": "3S", "pile": "left", "column": 1}')
    assert isinstance(event, Play)
    assert (event.player, event.card and event.card.code, event.pile, event.column) == (
        "B", "3S", "left", 1)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"t": 1, "round": 1, "type": "dance"}', "unknown event type"),
        ('{"t": -1, "round": 1, "type": "stall"}', "'t'"),
        ('{"t": 1, "round": 0, "type": "stall"}', "'round'"),
        ('{"t": 1, "round": 1, "type": "play", "player": "C", "card": "3S", "pile": "left", "column": 1}', "player"),
        ('{"t": 1, "round": 1, "type": "play", "player": "A", "card": "3X", "pile": "left", "column": 1}', "suit"),
        ('{"t": 1, "round": 1, "type": "play", "player": "A", "card": "3S", "pile": "middle", "column": 1}', "pile"),
        ('{"t": 1, "round": 1, "type": "play", "player": "A", "card": "3S", "pile": "left", "column": 6}', "column"),
        ('{"t": 1, "round": 1, "type": "play", "player": "A", "pile": "left", "column": 1}', "needs the field 'card'"),
        ('[1, 2]', "JSON object"),
    ],
)
def test_malformed_events_name_the_line_and_the_problem(line: str, message: str) -> None:
    with pytest.raises(EventLogError, match="line 2") as caught:
        list(parse_event_lines(['{"t": 0, "round": 1, "type": "stall"}', line], "log"))
    assert message in str(caught.value)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EventLogError, match="no event log"):
        read_events(tmp_path / "missing.jsonl")

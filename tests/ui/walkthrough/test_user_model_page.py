"""Chapter 7's page under AppTest: the golden numbers, the patience slider in the region's controls, the link."""

from __future__ import annotations

from tests.ui.conftest import region_data, send_message


def test_the_page_shows_the_golden_numbers_and_p_moves_rbp(open_page, shown_metrics):
    at = open_page("user-model")
    assert shown_metrics(at) == {"RBP": "0.3091", "ERR@8": "0.4828", "NDCG@8": "0.7283"}
    [patience] = region_data(at)["controls"]["settings"]
    assert patience["name"] == "persistence" and patience["value"] == "0.9" and not patience["buttons"]
    assert [choice["value"] for choice in patience["choices"]][:3] == ["0.05", "0.1", "0.15"]
    send_message(at, "control", action="setting", name="persistence", value="0.5")
    assert shown_metrics(at)["RBP"] == "0.3711" and at.query_params["persistence"] == "0.5"
    send_message(at, "control", action="setting", name="persistence", value="1.5")  # not a choice: ignored
    assert shown_metrics(at)["RBP"] == "0.3711"


def test_a_link_opens_binary_relevance_and_an_impatient_user(open_page, shown_metrics):
    at = open_page("user-model", {"rel": "binary", "persistence": "0.5", "k": "2"})
    assert shown_metrics(at)["ERR@2"] == "0.0312"  # (1/16) / 2: gdeval's grade mapping
    steps = next(block for block in region_data(at)["blocks"] if block["key"] == "try-this")["items"]
    assert steps[0]["text"].startswith("p = 0.5: an impatient user")
    assert steps[0]["done"] is False  # reached by the link, not by a move made here

"""Properties every metric must have, on random rankings and judgments (docs/architecture.md, "Tests")."""

from __future__ import annotations

import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import irlab
from irlab.metrics.curves import curve

ITEMS = [str(i) for i in range(1, 13)]
VARIANTS = st.fixed_dictionaries({"gain": st.sampled_from(["linear", "exponential"]),
                                  "discount": st.sampled_from(["log2", "jarvelin-kekalainen"]),
                                  "ideal": st.sampled_from(["judged", "retrieved"])})


@st.composite
def cases(draw, min_size=0):
    """(ranking, judgments, k): a ranking of some items, grades 0-4 for some items, a cutoff."""
    ranking = draw(st.permutations(ITEMS).map(lambda p: p[: draw(st.integers(min_size, len(ITEMS)))]))
    judgments = draw(st.dictionaries(st.sampled_from(ITEMS), st.integers(0, 4)))
    k = draw(st.integers(1, len(ITEMS) + 3))
    return list(ranking), judgments, k


def explained(ranking, judgments, k, variants):
    """One breakdown of every metric family for a case."""
    ndcg_options = variants
    dcg_options = {key: variants[key] for key in ("gain", "discount")}
    return [
        irlab.explain_precision_at_k(ranking, judgments, k),
        irlab.explain_precision_at_k(ranking, judgments, k, denominator="retrieved"),
        irlab.explain_recall_at_k(ranking, judgments, k),
        irlab.explain_recall_at_k(ranking, judgments, k, denominator="min-k-r"),
        irlab.explain_r_precision(ranking, judgments),
        irlab.explain_success_at_k(ranking, judgments, k),
        irlab.explain_reciprocal_rank(ranking, judgments),
        irlab.explain_reciprocal_rank(ranking, judgments, k),
        irlab.explain_average_precision(ranking, judgments, k),
        irlab.explain_average_precision(ranking, judgments, k, denominator="min-k-r"),
        irlab.explain_average_precision(ranking, judgments, k, denominator="found"),
        irlab.explain_cg_at_k(ranking, judgments, k, gain=variants["gain"]),
        irlab.explain_dcg_at_k(ranking, judgments, k, **dcg_options),
        irlab.explain_idcg_at_k(ranking, judgments, k, **ndcg_options),
        irlab.explain_ndcg_at_k(ranking, judgments, k, **ndcg_options),
        irlab.explain_ndcg_at_k(ranking, judgments, None, **ndcg_options),
    ]


NORMALISED = {"Precision", "Recall", "R-precision", "Success", "RR", "AP", "NDCG"}


@settings(max_examples=200, deadline=None)
@given(cases(), VARIANTS)
def test_normalised_values_stay_in_zero_one(case, variants):
    for breakdown in explained(*case, variants):
        assert not math.isnan(breakdown.value)
        if breakdown.measure.split("@")[0] in NORMALISED:
            assert 0.0 <= breakdown.value <= 1.0 + 1e-12, breakdown.measure
        else:
            assert breakdown.value >= 0.0


@settings(max_examples=200, deadline=None)
@given(cases(), VARIANTS)
def test_the_plugged_in_formula_evaluates_to_the_value(evaluate_latex, case, variants):
    """The expression tree and the LaTeX a student reads both compute the value shown."""
    for breakdown in explained(*case, variants):
        assert math.isclose(breakdown.plugged.value(), breakdown.value, rel_tol=1e-12, abs_tol=1e-12)
        if breakdown.plugged.shortened:
            continue
        shown = evaluate_latex(breakdown.plugged.latex())
        tolerance = 1e-9 if breakdown.plugged.exact else 1e-3 * max(1.0, abs(breakdown.value))
        assert math.isclose(shown, breakdown.value, abs_tol=tolerance), (breakdown.measure, breakdown.plugged_latex)
        assert breakdown.display_value in breakdown.plugged_latex and breakdown.display_value in breakdown.to_text()


@settings(max_examples=200, deadline=None)
@given(cases(), st.data())
def test_order_inside_the_top_k_never_changes_order_unaware_metrics(case, data):
    ranking, judgments, k = case
    top = data.draw(st.permutations(ranking[:k]))
    swapped = list(top) + ranking[k:]
    for metric in (irlab.precision_at_k, irlab.recall_at_k, irlab.success_at_k, irlab.cg_at_k):
        assert metric(swapped, judgments, k) == metric(ranking, judgments, k)
    assert irlab.confusion_at_k(swapped, judgments, k) == irlab.confusion_at_k(ranking, judgments, k)


@settings(max_examples=200, deadline=None)
@given(cases(), st.data(), VARIANTS)
def test_items_after_k_never_change_at_k_metrics(case, data, variants):
    ranking, judgments, k = case
    tail = data.draw(st.permutations(ranking[k:]))
    reordered = ranking[:k] + list(tail)
    before, after = explained(ranking, judgments, k, variants), explained(reordered, judgments, k, variants)
    for b, a in zip(before, after):
        if b.measure in ("RR", "R-precision", "NDCG") or (b.measure == "IDCG@" + str(k)):
            continue  # no cutoff, or R may exceed K
        assert math.isclose(a.value, b.value, abs_tol=1e-12), b.measure


@settings(max_examples=200, deadline=None)
@given(cases(min_size=1), VARIANTS)
def test_the_ideal_ranking_scores_ndcg_one(case, variants):
    ranking, judgments, k = case
    assume(any(g > 0 for g in judgments.values()))
    ideal = irlab.ideal_ranking(judgments, ranking)
    assert math.isclose(irlab.ndcg_at_k(ideal, judgments, k, **variants), 1.0)
    if variants["ideal"] == "retrieved":  # re-sorting what was retrieved is ideal for that basis
        assume(any(judgments.get(item, 0) > 0 for item in ranking))
        best_of_retrieved = [item for item in ideal if item in ranking]
        assert math.isclose(irlab.ndcg_at_k(best_of_retrieved, judgments, k, **variants), 1.0)


@settings(max_examples=200, deadline=None)
@given(cases(), VARIANTS)
def test_breakdown_rows_add_up_to_the_value(case, variants):
    ranking, judgments, k = case
    dcg = irlab.explain_dcg_at_k(ranking, judgments, k, gain=variants["gain"], discount=variants["discount"])
    assert math.isclose(math.fsum(dcg.column("contribution")), dcg.value, abs_tol=1e-9)
    assert not dcg.rows or math.isclose(dcg.rows[-1]["running_total"], dcg.value, abs_tol=1e-9)
    for row in dcg.rows:
        assert math.isclose(row["contribution"], row["gain"] / row["discount"], abs_tol=1e-12)

    ndcg = irlab.explain_ndcg_at_k(ranking, judgments, k, **variants)
    ideal_total = math.fsum(ndcg.column("ideal_contribution"))
    expected = math.fsum(ndcg.column("contribution")) / ideal_total if ideal_total > 0 else 0.0
    assert math.isclose(expected, ndcg.value, abs_tol=1e-9)
    assert math.isclose(ndcg.parts["IDCG"].value, ideal_total, abs_tol=1e-9)

    ap = irlab.explain_average_precision(ranking, judgments, k)
    relevant = sum(1 for g in judgments.values() if g >= 1)
    expected_ap = math.fsum(ap.column("term")) / relevant if relevant else 0.0
    assert math.isclose(expected_ap, ap.value, abs_tol=1e-12)
    for row in ap.rows:  # the P@k column is Precision@k
        assert math.isclose(row["precision"], irlab.precision_at_k(ranking, judgments, row["rank"]), abs_tol=1e-12)

    confusion = irlab.explain_confusion_at_k(ranking, judgments, k)
    for name, count in confusion.value._asdict().items():
        assert count == sum(1 for row in confusion.rows if row["class"] == name)
    assert sum(confusion.value) == len(set(ranking) | set(judgments))

    cg = irlab.explain_cg_at_k(ranking, judgments, k)
    assert cg.value == sum(cg.column("gain"))


@settings(max_examples=200, deadline=None)
@given(st.permutations(ITEMS).flatmap(lambda order: st.tuples(
    st.just(list(order)), st.dictionaries(st.sampled_from(list(order)), st.integers(0, 4), min_size=1))))
def test_recall_reaches_one_once_every_relevant_item_is_returned(case):
    ranking, judgments = case
    assume(any(grade >= 1 for grade in judgments.values()))
    assert irlab.recall_at_k(ranking, judgments, len(ranking)) == 1.0
    values = curve(irlab.explain_recall_at_k, ranking, judgments).values
    assert values == sorted(values)  # recall never falls as K grows


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(ITEMS), st.sampled_from([0.0, 0.5, 1.0, 2.5, -1.0]), min_size=1))
def test_rank_by_score_is_score_descending_then_id_descending(scores):
    ranking = irlab.rank_by_score(scores)
    assert sorted(ranking) == sorted(scores)
    for first, second in zip(ranking, ranking[1:]):
        assert (scores[first], first) > (scores[second], second)


@settings(max_examples=150, deadline=None)
@given(st.lists(cases(min_size=1), min_size=1, max_size=4))
def test_evaluate_is_the_mean_of_the_single_query_functions(many):
    qrels = {f"q{i}": judgments for i, (_, judgments, _) in enumerate(many)}
    run = {f"q{i}": ranking for i, (ranking, _, _) in enumerate(many)}
    k = many[0][2]
    means = irlab.evaluate(qrels, run, [f"P@{k}", "AP", f"nDCG@{k}", "RR"])
    expected = {
        f"P@{k}": [irlab.precision_at_k(r, j, k) for r, j, _ in many],
        "AP": [irlab.average_precision(r, j) for r, j, _ in many],
        f"nDCG@{k}": [irlab.ndcg_at_k(r, j, k) for r, j, _ in many],
        "RR": [irlab.reciprocal_rank(r, j) for r, j, _ in many],
    }
    for name, values in expected.items():
        assert math.isclose(means[name], math.fsum(values) / len(values), abs_tol=1e-12)

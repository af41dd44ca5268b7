"""The run doctor's panel, drawn before any number: each finding in one line (how many, why, what to do)."""

from __future__ import annotations

import streamlit as st

from irlab.runs.workspace import Options, Workspace
from irlab.ui.kit.markdown import escape_markdown


def doctor_panel(workspace: Workspace, options: Options, *, open_on_findings: bool = True) -> None:
    """An expander, open when the doctor found something (and ``open_on_findings``); 'no problems found' otherwise.

    The sample collection's findings (graded qrels read at ``-l 1``, tied scores) are there by design, so
    the page keeps its panel closed, with the count in the title, and the numbers on the first screen.
    """
    findings = workspace.doctor(options.relevance_level)
    found = [f for f in findings if not f.ok]
    title = (f"Run doctor: {len(found)} thing{'s' if len(found) != 1 else ''} to check before you read the numbers"
             if found else "Run doctor: no problems found")
    with st.expander(title, expanded=bool(found) and open_on_findings, icon=":material/stethoscope:"):
        if not found:
            for finding in findings:
                st.caption(escape_markdown(finding.line()))
            return
        # the same check on several runs says why and what to do once, under its runs' findings
        groups: dict[tuple[str, str, str], list] = {}
        for finding in found:
            groups.setdefault((finding.check, finding.why, finding.todo), []).append(finding)
        for (_, why, todo), same in groups.items():
            st.markdown("\n".join(f"- **{escape_markdown(f.what)}.**" for f in same))
            st.caption(escape_markdown(f"Why it matters: {why} What to do: {todo}"))
        passed = len(findings) - len(found)
        if passed:
            st.caption(f"The other {passed} check{'s' if passed != 1 else ''} found nothing.")

"""A phone's number keyboard for answer boxes (``keyboard.js``): ``inputmode`` on Streamlit text inputs.

``st.text_input`` cannot set ``inputmode``, and ``st.number_input`` renders ``type="number"``, which
refuses a decimal comma, a fraction and a percentage (answers are read as Practise reads them: ``0,75``,
``3/4``, ``75%``). So an answer box stays a text input and this tiny component sets
``inputmode="decimal"`` (``"numeric"`` for whole numbers) and ``enterkeyhint="send"`` on it, found by its
Streamlit key; it draws nothing (height 0) and sends nothing back.
"""

from __future__ import annotations

from collections.abc import Sequence

from irlab.ui.components import declare

_mount = declare("keyboard", js="keyboard/keyboard.js")


def number_keyboard(keys: Sequence[str], *, whole_numbers: bool = False) -> None:
    """Give the text inputs keyed ``keys`` a number keyboard on phones (decimal, or digits only for whole numbers)."""
    # a list, not a dict: Streamlit looks for dataframes in a dict's values, a third of this call's time
    _mount(key="irl-keyboard", data=["numeric" if whole_numbers else "decimal", *keys], height=0)

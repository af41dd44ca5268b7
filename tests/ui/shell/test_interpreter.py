"""The interpreter tuned for serving: what the process held at start-up is frozen, new objects are still collected."""

from __future__ import annotations

import gc

from irlab.ui.shell.interpreter import YOUNG, tune_for_serving


def test_start_up_objects_are_frozen_and_new_cycles_are_still_collected():
    threshold = gc.get_threshold()
    try:
        tune_for_serving()
        assert gc.get_threshold()[0] == YOUNG and gc.get_threshold()[1:] == threshold[1:]
        frozen = gc.get_freeze_count()
        assert frozen > 1000  # the modules this process imported

        class Node:
            pass

        node = Node()
        node.me = node  # a cycle made after start-up: reference counting alone never frees it
        assert gc.is_tracked(node)
        del node
        assert gc.collect() >= 1
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)

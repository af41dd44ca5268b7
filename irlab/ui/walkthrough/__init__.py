"""The walkthrough's pages: a chapter's frame and live region, its controls, the learner's state in the session.

A product: it imports the kit, the components, the shell and the core, never another product.
"""

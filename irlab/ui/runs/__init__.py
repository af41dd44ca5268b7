"""The Your runs page, by tab: uploads, the summary, per query, compare; ``page`` draws it."""

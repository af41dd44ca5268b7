"""The exercise pages: the builder (editor, question picker, preview, exports), Practise and the walkthrough quiz.

A product: it imports the kit, the components, the shell and the core, never another product.
"""

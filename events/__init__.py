"""Domain events: frozen dataclasses, past tense, one module per aggregate.

A class's module path is its stored topic, so never rename or move one
without registering the old topic.
"""

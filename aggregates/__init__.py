"""Aggregates as deciders: a state, pure `decide_*` functions returning events, and `evolve`."""

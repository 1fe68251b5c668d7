"""Projections: projectors that follow the event log and own the read tables they write."""

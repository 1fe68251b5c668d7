"""Queries: read functions over projection tables, returning response documents."""

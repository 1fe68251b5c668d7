"""Composition root: settings, wiring of ports to adapters, the CLI and the embedded PostgreSQL."""

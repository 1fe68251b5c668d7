"""Commands: validated inputs and the handlers that load aggregates, decide, and append events."""

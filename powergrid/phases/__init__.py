"""The rules of each phase: one module per phase, each exporting its action handlers."""

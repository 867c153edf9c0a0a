"""tcdebug: a terminal step-debugger for the torch.compile pipeline."""

__version__ = "0.1.0"

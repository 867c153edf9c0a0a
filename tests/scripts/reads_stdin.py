"""Reads a name from stdin, as `echo alice | python reads_stdin.py` gives it."""

name = input()
print(f"hello {name}")

"""Prints as fast as it can until it is ended."""

i = 0
while True:
    print(f"line {i} " + "y" * 100)
    i += 1

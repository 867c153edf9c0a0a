"""Prints many lines in bursts with pauses between them, so a live dump writes output.txt often."""

import sys
import time

for burst in range(int(sys.argv[1])):
    for i in range(5000):
        print(f"burst {burst} line {i} " + "x" * 60)
    sys.stdout.flush()
    time.sleep(1.3)
print("end")

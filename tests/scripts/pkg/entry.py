import sys

print("module entry", __name__, sys.argv[1:])

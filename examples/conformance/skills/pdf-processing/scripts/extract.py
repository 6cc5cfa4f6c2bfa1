"""Print the text of a PDF document."""
import sys

print(open(sys.argv[1], "rb").read().decode("latin-1"))

# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.backends.selection import *
from chartkit.backends.selection import __all__ as __all__

# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.selection import *
from chartkit.selection import __all__ as __all__

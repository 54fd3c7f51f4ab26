# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.read.rowset import *
from chartkit.read.rowset import __all__ as __all__

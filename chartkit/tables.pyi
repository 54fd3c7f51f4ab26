# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.read.tables import *
from chartkit.read.tables import __all__ as __all__

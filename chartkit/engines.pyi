# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.read.engines import *
from chartkit.read.engines import __all__ as __all__

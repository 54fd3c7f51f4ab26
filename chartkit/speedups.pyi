# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.read.speedups import *
from chartkit.read.speedups import __all__ as __all__

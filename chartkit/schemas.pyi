# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.read.schemas import *
from chartkit.read.schemas import __all__ as __all__

# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.check.integrity import *
from chartkit.check.integrity import __all__ as __all__

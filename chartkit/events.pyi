# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.check.events import *
from chartkit.check.events import __all__ as __all__

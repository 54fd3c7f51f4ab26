# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.plan.encode import *
from chartkit.plan.encode import __all__ as __all__

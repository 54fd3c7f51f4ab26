# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.plan.decide import *
from chartkit.plan.decide import __all__ as __all__

# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.notebook.widget import *
from chartkit.notebook.widget import __all__ as __all__

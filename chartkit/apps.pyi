# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.mcp.apps import *
from chartkit.mcp.apps import __all__ as __all__

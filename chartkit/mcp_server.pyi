# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.mcp.server import *
from chartkit.mcp.server import __all__ as __all__

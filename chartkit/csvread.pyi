# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.read.csvread import *
from chartkit.read.csvread import __all__ as __all__

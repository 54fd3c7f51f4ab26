# kept at this import path (chartkit._moved): its types, for type checkers
from chartkit.draw.charts import *
from chartkit.draw.charts import __all__ as __all__

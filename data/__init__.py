"""Static game data (YAML), shipped inside the package so a plain ``pip install .`` has it.

Engines find their files with ``importlib.resources.files("data") / "<game>" / "<file>.yaml"``.
"""

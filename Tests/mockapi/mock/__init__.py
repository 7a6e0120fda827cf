"""The PokeAPI look-alike behind Tests/mockapi/mock_pokeapi.py (see its docstring)."""

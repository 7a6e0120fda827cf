"""The PokeAPI look-alike behind Tests/support/mockapi/mock_pokeapi.py (see its docstring)."""

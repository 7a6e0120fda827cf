@_exported import PokedexModels

@_exported import PokedexModels
@_exported import PokedexNetwork

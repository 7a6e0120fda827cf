/// The answer to `Moves`: the moves one Pokémon learns in one game, by the four ways, as the
/// games' move lists show them.
public struct MoveTable: Equatable, Sendable {
    /// The Pokémon's id and identifier.
    public var id: UInt32
    public var pokemon: String
    /// The version group (`scarlet-violet`), and its games' names in ``language``.
    public var game: String
    public var gameName: String
    /// Every version group it has moves in, newest first: what `game` may be.
    public var games: [String]
    public var language: String
    public var rows: [MoveRow]

    public init(id: UInt32, pokemon: String, game: String, gameName: String, games: [String], language: String, rows: [MoveRow]) {
        self.id = id
        self.pokemon = pokemon
        self.game = game
        self.gameName = gameName
        self.games = games
        self.language = language
        self.rows = rows
    }
}

/// One line of a move list.
public struct MoveRow: Equatable, Sendable {
    public var method: Learnset.Method
    /// The level, for level-up (0: on evolution; 1: at the start or from the reminder); 0 otherwise.
    public var level: UInt8
    /// PokeAPI's id and identifier (`85`, `thunderbolt`).
    public var id: UInt32
    public var move: String
    /// As the games name it, in the table's language.
    public var name: String
    public var type: String
    public var typeName: String
    /// `physical`, `special` or `status`; "" where PokeAPI says none.
    public var category: String
    public var categoryName: String
    /// nil where the games print "—".
    public var power: UInt16?
    public var accuracy: UInt8?
    public var pp: UInt8?

    public init(method: Learnset.Method, level: UInt8, id: UInt32, move: String, name: String, type: String, typeName: String,
                category: String, categoryName: String, power: UInt16?, accuracy: UInt8?, pp: UInt8?) {
        self.method = method
        self.level = level
        self.id = id
        self.move = move
        self.name = name
        self.type = type
        self.typeName = typeName
        self.category = category
        self.categoryName = categoryName
        self.power = power
        self.accuracy = accuracy
        self.pp = pp
    }
}

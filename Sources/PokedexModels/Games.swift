/// The games as PokeAPI groups them (`version-group`), in its order (the order they came out,
/// a game's expansions after it), with the versions each holds and its generation: what says
/// which game is the newest a Pokémon's moves are listed for, and what `--game scarlet`
/// means. Bundled so neither waits for the network; a group PokeAPI adds later is still read
/// (ordered after these), and named from its identifier.
public enum Games {
    public struct Group: Sendable, Equatable {
        public var name: String
        public var order: Int
        public var generation: Int
        public var versions: [String]
    }

    public static let groups: [Group] = [
        Group(name: "red-green-japan", order: 1, generation: 1, versions: ["red-japan", "green-japan"]),
        Group(name: "blue-japan", order: 2, generation: 1, versions: ["blue-japan"]),
        Group(name: "red-blue", order: 3, generation: 1, versions: ["red", "blue"]),
        Group(name: "yellow", order: 4, generation: 1, versions: ["yellow"]),
        Group(name: "gold-silver", order: 5, generation: 2, versions: ["gold", "silver"]),
        Group(name: "crystal", order: 6, generation: 2, versions: ["crystal"]),
        Group(name: "ruby-sapphire", order: 7, generation: 3, versions: ["ruby", "sapphire"]),
        Group(name: "emerald", order: 8, generation: 3, versions: ["emerald"]),
        Group(name: "colosseum", order: 9, generation: 3, versions: ["colosseum"]),
        Group(name: "xd", order: 10, generation: 3, versions: ["xd"]),
        Group(name: "firered-leafgreen", order: 11, generation: 3, versions: ["firered", "leafgreen"]),
        Group(name: "diamond-pearl", order: 12, generation: 4, versions: ["diamond", "pearl"]),
        Group(name: "platinum", order: 13, generation: 4, versions: ["platinum"]),
        Group(name: "heartgold-soulsilver", order: 14, generation: 4, versions: ["heartgold", "soulsilver"]),
        Group(name: "black-white", order: 15, generation: 5, versions: ["black", "white"]),
        Group(name: "black-2-white-2", order: 16, generation: 5, versions: ["black-2", "white-2"]),
        Group(name: "x-y", order: 17, generation: 6, versions: ["x", "y"]),
        Group(name: "omega-ruby-alpha-sapphire", order: 18, generation: 6, versions: ["omega-ruby", "alpha-sapphire"]),
        Group(name: "sun-moon", order: 19, generation: 7, versions: ["sun", "moon"]),
        Group(name: "ultra-sun-ultra-moon", order: 20, generation: 7, versions: ["ultra-sun", "ultra-moon"]),
        Group(name: "lets-go-pikachu-lets-go-eevee", order: 21, generation: 7, versions: ["lets-go-pikachu", "lets-go-eevee"]),
        Group(name: "sword-shield", order: 22, generation: 8, versions: ["sword", "shield"]),
        Group(name: "the-isle-of-armor", order: 23, generation: 8, versions: ["the-isle-of-armor-sword", "the-isle-of-armor-shield"]),
        Group(name: "the-crown-tundra", order: 24, generation: 8, versions: ["the-crown-tundra-sword", "the-crown-tundra-shield"]),
        Group(name: "brilliant-diamond-shining-pearl", order: 25, generation: 8, versions: ["brilliant-diamond", "shining-pearl"]),
        Group(name: "legends-arceus", order: 26, generation: 8, versions: ["legends-arceus"]),
        Group(name: "scarlet-violet", order: 27, generation: 9, versions: ["scarlet", "violet"]),
        Group(name: "the-teal-mask", order: 28, generation: 9, versions: ["the-teal-mask-scarlet", "the-teal-mask-violet"]),
        Group(name: "the-indigo-disk", order: 29, generation: 9, versions: ["the-indigo-disk-scarlet", "the-indigo-disk-violet"]),
        Group(name: "legends-za", order: 30, generation: 9, versions: ["legends-za"]),
        Group(name: "mega-dimension", order: 31, generation: 9, versions: ["mega-dimension"]),
        Group(name: "champions", order: 32, generation: 9, versions: ["champions"]),
    ]

    private static let byName: [String: Group] = Dictionary(uniqueKeysWithValues: groups.map { ($0.name, $0) })
    private static let groupOfVersion: [String: String] = Dictionary(
        uniqueKeysWithValues: groups.flatMap { g in g.versions.map { ($0, g.name) } })

    /// `groups` newest first (a group this table does not know first of all, by name among them).
    public static func newestFirst(_ groups: some Sequence<String>) -> [String] {
        groups.sorted { (order(of: $0) ?? 0, $0) > (order(of: $1) ?? 0, $1) }
    }

    /// A group's place in the order; a group this table does not know comes after every one it does.
    public static func order(of group: String) -> Int? { byName[group]?.order ?? (APIName.isValid(group) ? groups.count + 1 : nil) }

    public static func group(_ name: String) -> Group? { byName[name] }

    /// The group a version (`scarlet`) belongs to.
    public static func group(ofVersion version: String) -> String? { groupOfVersion[version] }

    /// The versions of a group, in its order; the group's own name for a group this table does not know.
    public static func versions(of group: String) -> [String] { byName[group]?.versions ?? [group] }
}

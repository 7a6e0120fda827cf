import PokedexModels

/// What each member of ``Pokedex1`` does, in words, and the keys of each dictionary it answers:
/// the README's API table and pokedexd(1)'s D-BUS INTERFACE are made from these (`make docs`,
/// `tools/pokedex-docs`), and `ContractDocsTests` holds them to ``Pokedex1/interface`` and to
/// what the codings write.
extension Pokedex1 {
    /// One member's text, and the arguments of an example `busctl` call (nil: not a method).
    public struct MemberDoc: Sendable {
        public let text: String
        public let example: String?
        public let busctlTimeout: String?
        public init(_ text: String, example: String? = nil, busctlTimeout: String? = nil) {
            self.text = text
            self.example = example
            self.busctlTimeout = busctlTimeout
        }
    }

    /// One key of an `a{sv}` answer: its name, its type, and what it holds ("" where the name says it).
    public struct Key: Sendable, Equatable {
        public let name: String
        public let signature: String
        public let text: String
        /// Present only sometimes (the text says when).
        public let optional: Bool
        init(_ name: String, _ signature: String, _ text: String = "", optional: Bool = false) {
            self.name = name
            self.signature = signature
            self.text = text
            self.optional = optional
        }
    }

    public static let docs: [String: MemberDoc] = [
        "ListPage": MemberDoc("The list in the API's order, a page at a time: the total, and each entry's id, name, sprite path (\"\" until the sprite is on disk) and whether it is a favorite; limit 1…100.", example: "uu 0 20"),
        "Detail": MemberDoc("One Pokémon, in the service's language.", example: "s pikachu"),
        "LocalizedDetail": MemberDoc("""
            `Detail` in a language: "" (the service's, from its session's locale), a PokeAPI \
            code (en de fr es it ja ja-hrkt ja-roma ko zh-hans zh-hant es-419) or a locale \
            (de_DE.UTF-8). Its genus, flavour text, names and the evolution's conditions are in \
            it, English where PokeAPI has none in the language; identifiers stay. The names of \
            types, abilities and stats are fetched once, for every Pokémon and every language.
            """, example: "ss pikachu de"),
        "DisplayNames": MemberDoc("(id, identifier, name as the games write it) for each id asked (at most 4096), in order, in a language as `LocalizedDetail` takes it; ids that are no Pokémon are left out. Never waits on the network: the service ships every name, and a fetched record wins.", example: "aus 3 122 29 25 ja"),
        "Moves": MemberDoc("""
            The moves a Pokémon learns in one game, as the games' lists show them: `game` "" for \
            the newest game it has moves in, else a version group (scarlet-violet), a version \
            (scarlet) or a game's name in any language (Karmesin); `method` level-up, machine, \
            egg or tutor, "" for all four; each move's name, type and category in `language` (as \
            `LocalizedDetail` takes it). Its own member, so the card's round trip stays small; \
            one request a move the first time. NotFound names the games it has moves in.
            """, example: "ssss pikachu \"\" level-up de"),
        "Search": MemberDoc("By number or name in any language: exact, prefix, word prefix, substring, then typo-tolerant; `type:fire` and `gen:1` filter.", example: "su pika 10"),
        "SearchDetailed": MemberDoc("`Search` with why each result matched.", example: "su charzard 3"),
        "DesktopSearchPage": MemberDoc("What the desktop's search finds for the terms (GNOME Shell's `GetInitialResultSet`, KRunner's `Match`), as `SearchPage` pages it: every term must match, species first, at most 20; what `pokectl browse --desktop-search` lists, so that a launch from the shell shows the list the shell showed.", example: "asuu 2 mega char 0 20"),
        "SearchPage": MemberDoc("`Search` a page at a time, with how many match in all (`Search` stops at its limit); limit 1…100, and an offset at or past the total gives an empty page.", example: "suu type:water 100 100"),
        "ToggleFavorite": MemberDoc("Flips the favorite and returns the new state; durable before the reply.", example: "s pikachu"),
        "SetFavorite": MemberDoc("Sets the favorite; idempotent; durable before the reply.", example: "sb pikachu true"),
        "ChangeFavorite": MemberDoc("action add, remove or toggle, in one call, with no read-then-write race (what `pokectl fav` and `unfav` use): says what this call did; durable before the reply.", example: "ss pikachu add"),
        "ListFavorites": MemberDoc("The favorites, in the order added.", example: ""),
        "SpritePath": MemberDoc("The default sprite's absolute path, fetched if needed.", example: "s pikachu"),
        "CryPath": MemberDoc("The cry (PokeAPI's `cries.latest`, Ogg Vorbis), fetched if needed: its absolute path, for a player (`pw-play`, `paplay`; `pokectl cry` plays it).", example: "s pikachu"),
        "RandomSprite": MemberDoc("""
            A Pokémon drawn among those whose sprite is cached (the favorites only when \
            `favorites`), the shiny sprite with probability `shiny_chance` (0…1) where one is \
            cached. Never waits on the network while the cache holds a candidate (a cache with \
            none fetches one within the deadline); the shown one's shiny sprite is then fetched \
            in the background. NotFound when there are no favorites.
            """, example: "bd false 0.0078125"),
        "Status": MemberDoc("How the service stands.", example: ""),
        "Sync": MemberDoc("Fetches every list entry, detail, default sprite and evolution family, for offline use; resumable; progress in `SyncProgress`. Not bound by `--timeout`.", example: "", busctlTimeout: "1h"),
        "CacheStats": MemberDoc("What the disk cache holds, by kind, and the memory tier.", example: ""),
        "VerifyCache": MemberDoc("Reads every record in full and checks every sprite against its metadata record; the damaged are removed and fetched again, files that belong to nothing removed. Not bound by `--timeout`.", example: "", busctlTimeout: "1h"),
        "ClearCache": MemberDoc("Empties the disk cache and the memory tier, keeps favorites; the files and bytes removed.", example: ""),
        "FavoriteChanged": MemberDoc("After every durable change of a favorite, whichever client made it."),
        "CacheCleared": MemberDoc("After `ClearCache`: every `sprite_path` a client holds is gone (browse asks for its tiles again)."),
        "Stopping": MemberDoc("Just before the service releases its name: `idle` (no call for the idle timeout; the next call starts it again and nothing it answered has changed) or `stop` (told to stop: SIGTERM, `systemctl --user stop`). A widget keeps what it shows across an idle exit."),
        "Favorites": MemberDoc("The favorites' ids, in the order added."),
        "Online": MemberDoc("False while the API's host does not answer (the sprite host is followed on its own, in `Status`' `hosts`)."),
        "SyncProgress": MemberDoc("(done, total) of the sync under way, or of the last one (at most every 1%): total when it ended done or failed, where it stopped when cancelled."),
        "SyncState": MemberDoc("`idle` (no sync since the start), `running`, `done` (every Pokémon complete offline), `failed` (some were not) or `cancelled` (its caller left). A sync tries what failed again for about 90 s (a freeze, a suspend, a network blip) before it says `failed`."),
        "SearchCoverage": MemberDoc("(species whose localized names are searchable, species listed): every one the bundled name table knows from the first start, newer ones after `pokectl sync`."),
        "Version": MemberDoc("The service's version."),
        "ApiUrl": MemberDoc("The API's base URL the service fetches from."),
    ]

    /// The keys of each dictionary the members answer with, by member (and `Member.key` for one nested).
    public static let keys: [String: [Key]] = [
        "Detail": [
            Key("id", "u", "PokeAPI's id, the key for calls (a form's: 10100)"), Key("name", "s", "the identifier"),
            Key("number", "u", "the Pokédex number the games give it: a form's is its species' (Alolan Raichu: 26)"),
            Key("display_name", "s", "as the games write it", optional: true),
            Key("height", "u", "decimetres"), Key("weight", "u", "hectograms"),
            Key("types", "as"), Key("abilities", "as"), Key("stats", "a{su}"),
            Key("sprite_path", "s", "\"\" until the sprite is on disk"), Key("favorite", "b"),
            Key("genus", "s"), Key("flavor_text", "s"),
            Key("color", "s", "the sprite's dominant colour, #rrggbb, skipping transparent, near-white and near-black pixels; computed once and kept with the sprite"),
            Key("animated_sprite_path", "s", "the generation-V animated GIF, fetched on demand; \"\" where the API has none"),
            Key("cry_path", "s", "\"\" until `CryPath` fetched it"),
            Key("evolution", "a(ussuss)", """
                the family as this Pokémon's card shows it (a regional form's own line: Galarian \
                Meowth → Perrserker; a species' with its regional branches), first member first, \
                each after the one it evolves from, as (id, name, display_name, from, \
                trigger_kind, trigger): id and from PokeAPI's ids (a form's: 10100), from 0 for \
                the first, trigger_kind PokeAPI's trigger of its first way (level-up, use-item, \
                trade…), trigger every way it evolves, the current games' first, in the games' \
                words ("Level 37", "Use a Thunder Stone, in Alola", "Trade holding King’s Rock", \
                "Level 53, in Sun, Ultra Sun, Sword or Scarlet"); one request more the first \
                time a family is asked for, and one for each item, move or game it names
                """),
            Key("matchups", "a{sd}", "attacking type → 4, 2, 0.5, 0.25 or 0 against its own types (a form's its own), strongest first, ×1 left out; the bundled chart of the current games; abilities not counted (see ability_matchups)"),
            Key("ability_matchups", "a{sa{sd}}", "each of its abilities that changes a matchup (Levitate, Flash Fire, the Absorbs, Thick Fat, Filter, Wonder Guard…) → attacking type → the multiplier with it, for the types it changes (Levitate: ground 0; Wonder Guard: 0 for every hit not super effective); empty where none does"),
            Key("game", "s", "the version group the breeding and training facts (and `Moves` by default) hold for: the newest it has moves in (scarlet-violet); \"\" where none"),
            Key("hidden_ability", "s", "the identifier of its hidden ability, \"\" where it has none"),
            Key("egg_groups", "as", "PokeAPI's egg-group names (field, no-eggs)"),
            Key("gender_rate", "i", "females in eighths (0…8), -1 genderless; left out where not known", optional: true),
            Key("egg_cycles", "u", "left out where not known", optional: true),
            Key("capture_rate", "u", "the catch rate, 3…255, as the game above has it; left out where not known", optional: true),
            Key("base_friendship", "u", "as the game above has it (50 for most from Sword and Shield on); left out where not known", optional: true),
            Key("growth_rate", "s", "PokeAPI's growth-rate name (medium-slow)"),
            Key("ev_yield", "a{su}", "stat → effort values given when defeated, the stats it gives any for"),
            Key("held_items", "a{su}", "item → chance in percent of holding it in the wild, in held_items_version; left out where PokeAPI lists none", optional: true),
            Key("held_items_version", "s", "the newest version PokeAPI lists held items for (it lists none after Ultra Sun and Ultra Moon); left out with held_items", optional: true),
        ],
        "LocalizedDetail": [
            Key("language", "s", "the language it is in"), Key("type_names", "as", "in the order of types"),
            Key("ability_names", "as", "in the order of abilities"), Key("stat_names", "a{ss}"),
            Key("ability_effects", "as", "what each ability does, in the order of abilities: PokeAPI's short effect in the language, else the games' own description in it, else English"),
            Key("game_name", "s", "the games of `game` (Karmesin/Purpur)"), Key("egg_group_names", "as", "in the order of egg_groups"),
            Key("growth_rate_name", "s", "as players name it (Medium Fast)"), Key("held_item_names", "as", "in the order of held_items", optional: true),
            Key("held_items_version_name", "s", optional: true),
        ],
        "Moves": [
            Key("id", "u", "the Pokémon's id"), Key("pokemon", "s", "its identifier"), Key("game", "s", "the version group listed"),
            Key("game_name", "s", "its games' names in the language (Scarlet/Violet)"),
            Key("games", "as", "every version group it has moves in, newest first"), Key("language", "s", "the language it is in"),
            Key("moves", "a(suussssssuuu)", """
                each move as (method, level, id, move, name, type, type_name, category, \
                category_name, power, accuracy, pp): method level-up, machine, egg or tutor; \
                level for level-up (0 on evolution, 1 at the start or from the reminder), else \
                0; id and move PokeAPI's; name, type_name and category_name in the language; \
                category physical, special or status; power and accuracy 0 where the games print \
                — (a status move; one that never misses); level-up ones by level, then machines, \
                eggs and tutors, each in the games' order
                """),
        ],
        "SearchDetailed": [
            Key("id", "u"), Key("name", "s"), Key("number", "u", "the Pokédex number (a form's is its species')"),
            Key("sprite_path", "s"), Key("favorite", "b"),
            Key("match", "s", "exact, prefix, word, substring, fuzzy, localized or filter"),
            Key("matched_name", "s"), Key("language", "s"), Key("distance", "u", "the typos forgiven"),
        ],
        "Status": [
            Key("version", "s"), Key("api_url", "s"), Key("cache_dir", "s"), Key("data_dir", "s"),
            Key("memory_entries", "t"), Key("memory_bytes", "t"), Key("memory_cap_bytes", "t"),
            Key("disk_entries", "t"), Key("disk_bytes", "t"), Key("disk_cap_bytes", "t"), Key("favorites", "t"),
            Key("favorites_problem", "s", "\"\", or what is wrong with the favorites file and what was done"),
            Key("favorites_readable", "b", "false while the favorites file can be neither read nor changed; favorites_problem says why"),
            Key("online", "b"), Key("requests_in_flight", "t"), Key("requests_max_in_flight", "t"),
            Key("hosts", "aa{sv}", "each host the service fetches from"),
            Key("sandbox", "s", "the sandbox in effect, in one line"), Key("landlock_abi", "u"),
            Key("landlock", "as", "what Landlock restricts: files, tcp, scopes"),
            Key("landlock_missing", "as", "what this kernel cannot"), Key("namespaces", "b"),
            Key("sandbox_fallback", "b", "running as pokedex-fallback.service"),
            Key("unix_sockets_closed", "b", "no new Unix sockets once running"),
        ],
        "Status.hosts": [
            Key("host", "s"), Key("api", "b", "the one `Online` follows"), Key("up", "b"),
            Key("down_since", "d", "while down, seconds since 1970", optional: true),
            Key("reason", "s", "while down", optional: true),
            Key("next_attempt", "d", "while down, seconds since 1970", optional: true),
            Key("multiplexed", "b", "HTTP/2, once it answered", optional: true),
        ],
        "CacheStats": [
            Key("kinds", "aa{sv}", "one per kind, in order: " + CacheKind.allCases.map(\.rawValue).joined(separator: ", ")),
            Key("now", "t"), Key("files", "t"), Key("bytes", "t"), Key("disk_cap_bytes", "t"),
            Key("memory_entries", "t"), Key("memory_bytes", "t"), Key("memory_cap_bytes", "t"), Key("cache_dir", "s"),
        ],
        "CacheStats.kinds": [
            Key("kind", "s"), Key("count", "t"), Key("bytes", "t"), Key("stale", "t", "past their max-age"),
            Key("oldest_fetched_at", "t", "seconds since 1970, or 0"), Key("newest_fetched_at", "t", "seconds since 1970, or 0"),
        ],
        "VerifyCache": [
            Key("checked", "t"), Key("damaged", "t"), Key("repaired", "t"), Key("failed", "t"), Key("orphans", "t"),
            Key("failures", "a(ss)", "item and reason, the first ten"),
        ],
    ]

    /// What each error means, as the README and the man page say it.
    public static let errorDocs: [PokedexError.Kind: String] = [
        .notFound: "no Pokémon by that name or number; the message says \"did you mean\" where one is close",
        .invalidArgument: "a bad argument: a limit outside 1…100, an empty name or query, one too long, an unknown action or language, a chance outside 0…1",
        .unavailable: "the network failed and nothing is cached, or the call did not finish within --timeout; any method, when too many calls are already waiting for an answer",
        .storage: "a favorite could not be saved (disk full, permissions) and nothing was changed; for the cache methods, the cache could not be read, or a file in it not removed",
    ]
}

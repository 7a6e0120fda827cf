import ArgumentParser
import PokedexBusClient
import PokedexModels

/// `pokectl cache stats|verify|clear`: the service's disk cache, seen and managed.
struct Cache: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "cache",
        abstract: tr("See, check and empty the service's cache (favorites are never touched)."),
        subcommands: [Stats.self, Verify.self, Clear.self],
        defaultSubcommand: Stats.self) }

    struct Stats: PokectlCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "stats",
            abstract: tr("What the cache holds, by kind: count, size, oldest and newest, how many are stale."),
            discussion: tr("""
                Sprites count their images; their size includes their metadata records. Ages \
                count from when each was fetched (or last revalidated); stale ones are past the \
                max-age PokeAPI gave and are revalidated when next asked for.
                JSON: {"bytes", "cache_dir", "disk_cap_bytes", "files", "kinds": {KIND: \
                {"bytes", "count", "newest_fetched_at", "oldest_fetched_at", "stale"}}, \
                "memory_bytes", "memory_cap_bytes", "memory_entries", "now"}, KIND being list, \
                pokemon, species, filters, names, evolution_chains, moves, sprites, \
                animated_sprites, shiny_sprites, cries or other; times in seconds since 1970 by \
                the service's clock (null when none is known).
                """)) }

        @OptionGroup var common: Common

        var options: ContextOptions { common.options }

        func run(in context: Context) throws {
            let output = context.output
            let s = try context.withClient { c throws(BusError) in try c.call(Pokedex1.cacheStats) }
            if context.json { return output.json(Self.json(s)) }
            Self.text(s, output)
        }

        static func text(_ s: CacheStats, _ output: Output) {
            let w = output.words
            let labels: [CacheKind: String] = [
                .list: w.tr("list"), .pokemon: w.tr("pokémon"), .species: w.tr("species"), .filters: w.tr("type/gen filters"),
                .names: w.tr("names"), .evolutionChains: w.tr("evolution families"), .moves: w.tr("moves"), .sprites: w.tr("sprites"), .animatedSprites: w.tr("animated sprites"),
                .shinySprites: w.tr("shiny sprites"), .cries: w.tr("cries"), .other: w.tr("other"),
            ]
            let age = { (t: Int?) in t.map { w.trf("%s ago", Output.age(s.now - $0)) } ?? "-" }
            // Numbers line up on their last digit, their headings too.
            let counts = Output.rightAligned([w.tr("COUNT")] + s.kinds.map { String($0.count) })
            let sizes = Output.rightAligned([w.tr("SIZE")] + s.kinds.map { Output.size($0.bytes) })
            let stale = Output.rightAligned([w.tr("STALE")] + s.kinds.map { String($0.stale) })
            output.table([w.tr("KIND"), counts[0], sizes[0], w.tr("OLDEST"), w.tr("NEWEST"), stale[0]], s.kinds.indices.map { i in
                let k = s.kinds[i]
                return [labels[k.kind] ?? k.kind.rawValue, counts[i + 1], sizes[i + 1], age(k.oldestFetchedAt), age(k.newestFetchedAt), stale[i + 1]]
            })
            output.line("")
            output.fields([
                [w.tr("disk"), w.trf("%s files, %s of %s", String(s.files), Output.size(s.bytes), Output.size(s.diskCapBytes))],
                [w.tr("memory"), w.trf("%s entries, %s of %s", String(s.memoryEntries), Output.size(s.memoryBytes), Output.size(s.memoryCapBytes))],
                [w.tr("cache"), Output.safe(s.cacheDirectory)],
            ])
        }

        static func json(_ s: CacheStats) -> JSON {
            let time = { (t: Int?) in t.map { JSON.int($0) } ?? .null }
            let kinds = s.kinds.map { k in
                (k.kind.rawValue, JSON.object([
                    ("bytes", .int(k.bytes)), ("count", .int(k.count)), ("newest_fetched_at", time(k.newestFetchedAt)),
                    ("oldest_fetched_at", time(k.oldestFetchedAt)), ("stale", .int(k.stale)),
                ]))
            }
            return .object([
                ("bytes", .int(s.bytes)), ("cache_dir", .string(s.cacheDirectory)), ("disk_cap_bytes", .int(s.diskCapBytes)),
                ("files", .int(s.files)), ("kinds", .object(kinds.sorted { $0.0 < $1.0 })), ("memory_bytes", .int(s.memoryBytes)),
                ("memory_cap_bytes", .int(s.memoryCapBytes)), ("memory_entries", .int(s.memoryEntries)), ("now", .int(s.now)),
            ])
        }
    }

    struct Verify: PokectlCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "verify",
            abstract: tr("Check every cached file; fetch the damaged ones again; remove files that belong to nothing."),
            discussion: tr("""
                Every record is read in full (length, checksum, key) and every sprite checked \
                against its metadata record (size, CRC-32, a whole PNG or GIF). What is damaged \
                is removed and fetched again from PokeAPI. Takes as long as the cache is big. \
                Exits 3 if anything could not be fetched again (the next call that needs it \
                tries again).
                JSON: {"checked", "damaged", "failed", "failures": [{"item", "reason"}], \
                "orphans", "repaired"}
                """)) }

        @OptionGroup var common: Common

        var options: ContextOptions { common.options }

        func run(in context: Context) throws {
            let output = context.output, w = context.words
            let r = try context.withClient { c throws(BusError) in
                // Like a sync, as long as the cache is big: no call timeout (a day).
                c.timeout = 86_400
                return try c.call(Pokedex1.verifyCache)
            }
            if context.json {
                output.json(.object([
                    ("checked", .int(r.checked)), ("damaged", .int(r.damaged)), ("failed", .int(r.failed)),
                    ("failures", .array(r.failures.map { .object([("item", .string($0.item)), ("reason", .string($0.reason))]) })),
                    ("orphans", .int(r.orphans)), ("repaired", .int(r.repaired)),
                ]))
            } else {
                var line = w.trn("checked %s cached item", "checked %s cached items", r.checked) + ": "
                line += r.damaged == 0 ? w.tr("none damaged")
                    : w.trf("%s damaged, %s fetched again", String(r.damaged), String(r.repaired))
                        + (r.failed > 0 ? ", " + output.paint(w.trf("%s failed", String(r.failed)), "31") : "")
                if r.orphans > 0 { line += "; " + w.trn("%s orphaned file removed", "%s orphaned files removed", r.orphans) }
                output.line(line)
                if !r.failures.isEmpty {
                    output.table([w.tr("ITEM"), w.tr("WHY")], r.failures.map { [Output.safe($0.item), Output.safe($0.reason)] })
                    if r.failed > r.failures.count {
                        output.line(output.dim(w.trf("and %s more; see 'journalctl --user -u pokedex'", String(r.failed - r.failures.count))))
                    }
                }
            }
            if r.failed > 0 { throw Failure.silent(.unavailable) }
        }
    }

    struct Clear: PokectlCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "clear",
            abstract: tr("Empty the cache, on disk and in memory; favorites are kept."),
            discussion: tr("Everything is fetched again when next needed. Favorites live in the data directory and are never touched.\nJSON: {\"bytes\", \"favorites_kept\", \"files\"}")) }

        @OptionGroup var common: Common

        var options: ContextOptions { common.options }

        func run(in context: Context) throws {
            let output = context.output, w = context.words
            let (r, favorites) = try context.withClient { c throws(BusError) in (try c.call(Pokedex1.clearCache), try c.get(Pokedex1.favorites)) }
            if context.json {
                return output.json(.object([("bytes", .int(r.bytes)), ("favorites_kept", .int(favorites.count)), ("files", .int(r.files))]))
            }
            output.line(w.trn("removed %s file (%s) from the cache; favorites kept (%s)",
                                     "removed %s files (%s) from the cache; favorites kept (%s)", r.files, Output.size(r.bytes),
                                     String(favorites.count)))
        }
    }
}

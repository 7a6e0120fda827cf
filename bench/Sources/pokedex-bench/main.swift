// pokedex-bench: an in-process bus client that times the service from a peer's side.
//   pokedex-bench rtt N                 warm ListPage 0 20 and Peer.Ping, interleaved: p50/p99 µs
//   pokedex-bench cold-page             ListPage 0 20 now, then until all 20 sprites are on disk: ms
//   pokedex-bench scroll FIRST LAST MS  pages FIRST…LAST, one every MS ms: each reply's µs and filled sprites
//   pokedex-bench concurrent-detail N NAME   N concurrent Detail calls (one connection each)
//   pokedex-bench search-rtt N         Search (a 12-query mix) and Peer.Ping, interleaved: p50/p99 µs
//   pokedex-bench fault-run             all 68 pages of 20, then Detail 1…151: calls ending in data, typed
//                                         errors, other errors, and p50/p99/max seconds per call
//   pokedex-bench search-core CACHE_DIR CASES   in-process search over a synced disk tier:
//                                         latency by query length, index memory, the query set's accuracy
//                                         (a case expecting "-" must find nothing)
//   pokedex-bench during-sync MS NAME  warm ListPage and Detail NAME every MS ms, idle and while
//                                         a whole sync runs: n, p50/p99/max ms (DuringSync.swift)
//   pokedex-bench flood-names SENDERS CALLS IDS DEPTH, big-message MB: see Flood.swift
//   pokedex-bench png-bomb: see PNGBomb.swift
//   pokedex-bench sanitize DATA_DIR     UntrustedText over every genus, flavour text and name of
//                                         PokeAPI's species, as served and with escapes added,
//                                         against a copy of the same text as the baseline: ns/text
import Foundation
import Glibc
import PokedexBusClient
import PokedexCore

let args = CommandLine.arguments
guard args.count >= 2 else { fail("usage: rtt N | cold-page | scroll FIRST LAST MS | concurrent-detail N NAME") }

// What needs no service.
if args[1] == "png-bomb" {
    pngBomb()
    exit(0)
}

do {
    let c = try PokedexClient()
    switch args[1] {
    case "rtt":
        let n = Int(args.count > 2 ? args[2] : "2000") ?? 2000
        for _ in 0..<200 { _ = try c.listPage(offset: 0, limit: 20); try c.ping() }  // warm up
        var page: [Double] = [], ping: [Double] = []
        for _ in 0..<n {
            var t = now()
            _ = try c.listPage(offset: 0, limit: 20)
            page.append((now() - t) * 1e6)
            t = now()
            try c.ping()
            ping.append((now() - t) * 1e6)
        }
        print("listpage_p50_us=\(Int(percentile(page, 0.5))) listpage_p99_us=\(Int(percentile(page, 0.99))) ping_p50_us=\(Int(percentile(ping, 0.5))) ping_p99_us=\(Int(percentile(ping, 0.99)))")
    case "detail-rtt":
        // A warm Detail (the card, with its family and matchups) over the bus, against Ping, interleaved.
        let n = Int(args.count > 2 ? args[2] : "2000") ?? 2000
        let name = args.count > 3 ? args[3] : "charizard"
        for _ in 0..<200 { _ = try c.detail(name); try c.ping() }  // warm up
        var detail: [Double] = [], ping: [Double] = []
        for _ in 0..<n {
            var t = now()
            _ = try c.detail(name)
            detail.append((now() - t) * 1e6)
            t = now()
            try c.ping()
            ping.append((now() - t) * 1e6)
        }
        print("detail_p50_us=\(Int(percentile(detail, 0.5))) detail_p99_us=\(Int(percentile(detail, 0.99))) ping_p50_us=\(Int(percentile(ping, 0.5))) ping_p99_us=\(Int(percentile(ping, 0.99)))")
    case "moves-rtt":
        // A warm Moves (every way, in a language) over the bus, against Ping, interleaved.
        let n = Int(args.count > 2 ? args[2] : "2000") ?? 2000
        let name = args.count > 3 ? args[3] : "pikachu"
        let language = args.count > 4 ? args[4] : "de"
        var rows = 0
        for _ in 0..<200 { rows = try c.call(Pokedex1.moves, (name, "", nil, language)).rows.count; try c.ping() }  // warm up
        var moves: [Double] = [], ping: [Double] = []
        for _ in 0..<n {
            var t = now()
            _ = try c.call(Pokedex1.moves, (name, "", nil, language))
            moves.append((now() - t) * 1e6)
            t = now()
            try c.ping()
            ping.append((now() - t) * 1e6)
        }
        print("moves_rows=\(rows) moves_p50_us=\(Int(percentile(moves, 0.5))) moves_p99_us=\(Int(percentile(moves, 0.99))) ping_p50_us=\(Int(percentile(ping, 0.5))) ping_p99_us=\(Int(percentile(ping, 0.99)))")
    case "search-rtt":
        // Search over the bus for a mix of queries (prefix, typo, other language, filter), against Ping.
        let n = Int(args.count > 2 ? args[2] : "2000") ?? 2000
        let queries = ["pika", "charzard", "glurak", "mega", "25", "bulbsaur", "ピカチュウ", "type:fire char", "m", "gardevior", "dracaufeu", "eev"]
        for q in queries { _ = try c.search(q, limit: 10) }
        var search: [Double] = [], ping: [Double] = []
        for i in 0..<n {
            var t = now()
            _ = try c.search(queries[i % queries.count], limit: 10)
            search.append((now() - t) * 1e6)
            t = now()
            try c.ping()
            ping.append((now() - t) * 1e6)
        }
        print("search_p50_us=\(Int(percentile(search, 0.5))) search_p99_us=\(Int(percentile(search, 0.99))) ping_p50_us=\(Int(percentile(ping, 0.5))) ping_p99_us=\(Int(percentile(ping, 0.99)))")
    case "cold-page":
        let t0 = now()
        var page = try c.listPage(offset: 0, limit: 20)
        let reply = now() - t0
        while page.entries.contains(where: { $0.spritePath.isEmpty }) {
            guard now() - t0 < 30 else { fail("sprites still missing after 30 s") }
            usleep(2000)
            page = try c.listPage(offset: 0, limit: 20)
        }
        print("reply_ms=\(ms(reply)) all_sprites_ms=\(ms(now() - t0))")
    case "scroll":
        guard args.count == 5, let first = Int(args[2]), let last = Int(args[3]), let ms = Double(args[4]) else { fail("scroll FIRST LAST MS") }
        _ = try c.listPage(offset: 0, limit: 20)
        let start = now()
        var worst = 0.0, unfilled = 0
        var lines: [String] = []
        for (i, p) in (first...last).enumerated() {
            let due = start + Double(i + 1) * ms / 1000
            let wait = due - now()
            if wait > 0 { usleep(UInt32(wait * 1e6)) }
            let t = now()
            let page = try c.listPage(offset: UInt32(p * 20), limit: 20)
            let us = (now() - t) * 1e6
            let missing = page.entries.filter { $0.spritePath.isEmpty }.count
            worst = max(worst, us)
            unfilled += missing
            lines.append("page \(p): \(Int(us)) µs, \(20 - missing)/20 sprites")
        }
        print(lines.joined(separator: "\n"))
        print("worst_us=\(Int(worst)) unfilled_sprites=\(unfilled)")
    case "fault-run":
        var times: [Double] = [], data = 0, typed = 0, other = 0
        func attempt(_ body: () throws(BusError) -> Void) {
            let t = now()
            do throws(BusError) { try body(); data += 1 } catch {
                if error.name.hasPrefix(PokedexError.namePrefix) { typed += 1 } else { other += 1 }
            }
            times.append(now() - t)
        }
        for page in 0..<68 { attempt { () throws(BusError) in _ = try c.listPage(offset: UInt32(page * 20), limit: 20) } }
        for id in 1...151 { attempt { () throws(BusError) in _ = try c.detail(String(id)) } }
        print("calls=\(times.count) data=\(data) typed_errors=\(typed) other_errors=\(other) p50_ms=\(ms(percentile(times, 0.5))) p99_ms=\(ms(percentile(times, 0.99))) max_ms=\(ms(times.max() ?? 0))")
    case "concurrent-detail":
        guard args.count == 4, let n = Int(args[2]) else { fail("concurrent-detail N NAME") }
        // One connection per caller, all sent before any reply is read.
        var clients: [PokedexClient] = []
        for _ in 0..<n { clients.append(try PokedexClient()) }
        let t0 = now()
        let ok = try PokedexClient.concurrent(clients.map { ($0, Pokedex1.detail.name, args[3]) })
        print("answered=\(ok) of \(n) in \(ms(now() - t0)) ms")
    case "flood-detail":
        // N different Pokémon (ids 1…N) asked at once, ten calls a connection, all sent before
        // any reply is read: how many were answered with data.
        guard args.count == 3, let n = Int(args[2]) else { fail("flood-detail N") }
        var clients: [PokedexClient] = []
        for _ in 0..<(n + 9) / 10 { clients.append(try PokedexClient(timeout: 60)) }
        let t0 = now()
        let ok = try PokedexClient.concurrent((1...n).map { (clients[($0 - 1) / 10], Pokedex1.detail.name, String($0)) })
        print("answered=\(ok) of=\(n) ms=\(ms(now() - t0))")
    case "timed-detail":
        // One Detail: how long it took, and the error if it failed.
        guard args.count == 3 else { fail("timed-detail NAME") }
        let t0 = now()
        do throws(BusError) {
            let d = try c.detail(args[2])
            print("ms=\(ms(now() - t0)) result=data name=\(d.name)")
        } catch {
            print("ms=\(ms(now() - t0)) result=\(error.name.split(separator: ".").last ?? "") message=\(error.message)")
        }
    case "blocked-sprites":
        // With the sprite host unreachable: the first page's reply, pages 1–4 (one every 100 ms),
        // one Detail, then how often Online changed meanwhile.
        let watcher = try PokedexSignalWatcher()
        var t = now()
        _ = try c.listPage(offset: 0, limit: 20)
        let first = now() - t
        var worst = 0.0
        for p in 1...4 {
            usleep(100_000)
            t = now()
            _ = try c.listPage(offset: UInt32(p * 20), limit: 20)
            worst = max(worst, now() - t)
        }
        let d = try c.detail("pikachu")
        usleep(1_500_000)
        var changes = 0
        while let sig = try watcher.next(timeout: 0.2) {
            if sig.member == FreedesktopBus.propertiesChanged, case .dict(let props)? = sig.values.dropFirst().first {
                changes += props.filter { $0.key.string == Pokedex1.online.name }.count
            }
        }
        print("first_page_ms=\(ms(first)) later_pages_worst_ms=\(ms(worst)) online_changes=\(changes) online=\(try c.property(Pokedex1.online.name).bool ?? false) detail_sprite=\(d.spritePath.isEmpty ? "empty" : "set")")
    case "decode":
        // CPU cost of turning bodies into records: every `pokemon/*/index.json` under DIR.
        guard args.count == 3 else { fail("decode DATA_DIR (api/v2 of PokeAPI's static dump)") }
        var bodies: [[UInt8]] = []
        var total = 0
        for id in 1...20000 {
            guard let d = FileManager.default.contents(atPath: "\(args[2])/pokemon/\(id)/index.json") else { continue }
            bodies.append(Array(d)); total += d.count
        }
        let t0 = now()
        for b in bodies { _ = try APIDecoding.pokemon(b) }
        let s = now() - t0
        print("bodies=\(bodies.count) mb=\(total / 1_000_000) ms=\(ms(s)) mb_per_s=\(Int(Double(total) / 1e6 / s))")
    case "sanitize":
        guard args.count == 3 else { fail("sanitize DATA_DIR (api/v2 of PokeAPI's static dump)") }
        var texts: [String] = []
        for id in 1...20000 {
            guard let d = FileManager.default.contents(atPath: "\(args[2])/pokemon-species/\(id)/index.json"),
                  let s = try? APIDecoding.species(Array(d)) else { continue }
            texts += [s.genus, s.flavorText] + s.names.values
        }
        let hostile = texts.map { "\u{1B}]52;c;aGFja2Vk\u{07}" + $0 + "\u{9B}31m\u{202E}<b>&\n<0>" }
        // Interleaved rounds, so that the machine's noise falls on all alike; the median round.
        func time(_ set: [String], _ f: (String) -> String) -> Double {
            let t = now()
            var n = 0
            for s in set { n &+= f(s).utf8.count }
            if n == -1 { print(n) }
            return (now() - t) / Double(set.count) * 1e9
        }
        let copy: (String) -> String = { String(decoding: Array($0.utf8), as: UTF8.self) }
        let cases: [(String, [String], (String) -> String)] = [
            ("copy", texts, copy), ("terminal", texts, UntrustedText.terminal), ("markup", texts, UntrustedText.markup),
            ("log", texts, UntrustedText.logLine), ("copy_hostile", hostile, copy), ("terminal_hostile", hostile, UntrustedText.terminal),
            ("markup_hostile", hostile, UntrustedText.markup), ("log_hostile", hostile, UntrustedText.logLine),
        ]
        var rounds: [String: [Double]] = [:]
        for _ in 0..<15 { for (name, set, f) in cases { rounds[name, default: []].append(time(set, f)) } }
        let median = rounds.mapValues { percentile($0, 0.5) }
        var line = "texts=\(texts.count)"
        for (name, _, _) in cases {
            let base = median[name.hasSuffix("_hostile") ? "copy_hostile" : "copy"]!
            line += " \(name)_ns=\(Int(median[name]!)) \(name)_x=\(String(format: "%.2f", median[name]! / base))"
        }
        print(line)
    case "during-sync":
        duringSync(args)
    case "flood-names":
        floodNames(args)
    case "flood-localized":
        floodLocalized(args)
    case "probe":
        probeOnly(args)
    case "big-message":
        bigMessage(args)
    case "search-core":
        guard args.count == 4, let index = await searchIndex(cache: args[2]) else { fail("search-core CACHE_DIR CASES (a synced cache)") }
        // Latency by query length: prefixes and one-letter typos of every name, 1–12 characters.
        var byLength: [Int: [Double]] = [:]
        var rng = SystemRandomNumberGenerator()
        let names = index.names
        for round in 0..<3000 {
            let name = names[round % names.count]
            let n = 1 + round % 12
            var q = String(name.prefix(n))
            if round % 3 == 0, q.count > 3 { q.remove(at: q.index(q.startIndex, offsetBy: Int.random(in: 1..<q.count, using: &rng))) }
            let query = SearchQuery(parsing: q)
            let t = now()
            _ = index.search(query, limit: 10)
            byLength[n, default: []].append((now() - t) * 1e6)
        }
        let all = byLength.values.flatMap { $0 }
        var line = "search_p50_us=\(Int(percentile(all, 0.5))) search_p99_us=\(Int(percentile(all, 0.99))) index_kib=\(index.memoryBytes / 1024) localized_species=\(index.localizedSpecies)"
        line += " worst_length_p99_us=\(Int(byLength.values.map { percentile($0, 0.99) }.max() ?? 0))"
        print(line)
        // The query set.
        guard let text = try? String(contentsOfFile: args[3], encoding: .utf8) else { fail("cannot read \(args[3])") }
        var total = 0, first = 0, top3 = 0, nothing = 0, nothingRight = 0
        var misses: [String] = []
        for row in text.split(separator: "\n") where !row.hasPrefix("# ") {  // "#025" is a query
            let f = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 2 else { continue }
            total += 1
            let hits = index.search(SearchQuery(parsing: f[0]), limit: 3).map(\.item.name)
            // "-": nonsense, which must find nothing.
            if f[1] == "-" {
                nothing += 1
                if hits.isEmpty { nothingRight += 1; first += 1; top3 += 1 } else { misses.append("\(f[0]) → \(hits) (wanted nothing)") }
                continue
            }
            if hits.first == f[1] { first += 1 }
            if hits.contains(f[1]) { top3 += 1 } else { misses.append("\(f[0]) → \(hits) (wanted \(f[1]))") }
            if hits.first != f[1] && hits.contains(f[1]) { misses.append("\(f[0]) → \(hits) (wanted \(f[1]) first)") }
        }
        print("cases=\(total) first=\(first) top3=\(top3) nothing=\(nothingRight)/\(nothing)")
        // Random letters (10 to 20, a fixed seed): a search that finds something in them is wrong.
        var seed: UInt64 = 28
        var found: [String] = []
        for _ in 0..<2000 {
            func next() -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int(seed >> 33) }
            // Any letters; or pronounceable (consonant, vowel, …); or two letters in turn.
            let n = 10 + next() % 11, kind = next() % 3
            let vowels = Array("aeiou"), consonants = Array("bcdfghjklmnpqrstvwxyz")
            let pair = [Character(Unicode.Scalar(UInt8(97 + next() % 26))), Character(Unicode.Scalar(UInt8(97 + next() % 26)))]
            let q = String((0..<n).map { i -> Character in
                switch kind {
                case 0: return Character(Unicode.Scalar(UInt8(97 + next() % 26)))
                case 1: return i % 2 == 0 ? consonants[next() % consonants.count] : vowels[next() % vowels.count]
                default: return pair[i % 2]
                }
            })
            let hits = index.search(SearchQuery(parsing: q), limit: 3)
            if let h = hits.first { found.append("\(q) → \(h.item.name) (\(h.distance) typos)") }
        }
        print("random_letters_found=\(found.count)/2000")
        for f in found.prefix(10) { print("  random: \(f)") }
        for m in misses { print("  miss: \(m)") }
    default:
        fail("unknown command \(args[1])")
    }
} catch {
    fail("\(error)")
}

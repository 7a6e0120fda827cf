/// How the desktop's search providers order what a search finds: every term must match, species
/// before forms, and a first screen of different Pokémon. Pure functions of the hits, so that a
/// search answers the same list however the shell reached it (GNOME's subsearch is a search).
extension DesktopSearch {
    /// A result's place: the Pokémon, whether its name or number matched whole, and a
    /// relevance that falls with the rank (an exact match is 1).
    public struct Ranked: Sendable {
        public let item: PokemonIndex.Item
        public let exact: Bool
        public let relevance: Double
    }

    /// One query per term, or a single number query when the terms together are a number; the
    /// names in `language` (the desktop's) rank as the API's.
    static func queries(_ terms: [String], language: String? = nil) -> [SearchQuery] {
        if let n = PokedexNumber.parse(terms.joined(separator: " ")) { return [SearchQuery(parsing: String(n))] }
        return terms.prefix(8).map { term in
            var q = SearchQuery(parsing: term)
            q.language = language
            return q
        }
    }

    /// The first term's hits that every other term also found, ordered by how well the worst
    /// of the terms matched, then in the first term's order: "char izard" puts Charizard (both
    /// in its name) before Charmeleon (whose romaji name "Lizardo" holds "izard"). A term with
    /// exact, prefix or substring hits counts only those: a typo-tolerant match is for a term
    /// that found nothing else ("mon13" must not keep "mon1" and "mon3").
    static func intersect(_ hits: [[SearchHit]], relatives: Relatives = { _ in [] }) -> [SearchHit] {
        let rank = { (h: SearchHit) in h.rank }
        // One term: species before forms ("pika": Pikachu, then Pikachu's costumes after the
        // other species).
        if hits.count == 1 { return firstScreen(hits[0], rank: rank, relatives: relatives) }
        let hits = hits.map { h in
            let precise = h.filter(isPrecise)
            return precise.isEmpty ? h : precise
        }
        guard let first = hits.first else { return [] }
        // Each other term's best rank for each Pokémon it found.
        let others: [[UInt32: Int]] = hits.dropFirst().map { term in
            var best: [UInt32: Int] = [:]
            for h in term { best[h.item.id] = min(best[h.item.id] ?? .max, rank(h)) }
            return best
        }
        let kept = first.enumerated().compactMap { position, h -> (hit: SearchHit, worst: Int, position: Int)? in
            var worst = rank(h)
            for term in others {
                guard let r = term[h.item.id] else { return nil }
                worst = max(worst, r)
            }
            return (h, worst, position)
        }
        return kept.sorted { ($0.worst, isForm($0.hit), $0.position) < ($1.worst, isForm($1.hit), $1.position) }.map(\.hit)
    }

    /// The rows a shell shows of a provider before "more": GNOME Shell's five.
    static let firstScreenRows = 5

    /// A species' evolution family, but itself (``SearchIndex/relatives(of:)``).
    typealias Relatives = (PokemonIndex.Item) -> [PokemonIndex.Item]

    static func relatives(_ index: SearchIndex?) -> Relatives { index.map { i in { i.relatives(of: $0) } } ?? { _ in [] } }

    /// One term's hits for the desktop: every species the query finds, in the index's order,
    /// then, to fill the first screen, names that start almost alike and the family of those
    /// found, then the forms ("pika": Pikachu and Tadbulb, whose Japanese name is ズピカ, then
    /// Pikipek, then Raichu and Pichu, then Pikachu's costumes). A query that names only forms
    /// ("alola") gets those; one that found nothing as typed, its typos.
    static func firstScreen(_ hits: [SearchHit], rank: (SearchHit) -> Int, relatives: Relatives = { _ in [] }) -> [SearchHit] {
        let precise = hits.filter(isPrecise)
        let ordered = (precise.isEmpty ? hits : precise).enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        let species = ordered.filter { isForm($0) == 0 }
        let fill = precise.isEmpty ? [] : fillFirstScreen(hits, after: species, rank: rank, relatives: relatives)
        return species + fill + ordered.filter { isForm($0) == 1 }
    }

    /// Different Pokémon, not a wall of one Pikachu's costumes: when the query names no
    /// Pokémon whole and found fewer species than the first screen shows, the species whose
    /// API name starts almost as the query does (Pikipek for "pika"), then the evolution
    /// family of those whose API name holds it (Raichu, Pichu), up to the first screen.
    static func fillFirstScreen(_ hits: [SearchHit], after species: [SearchHit], rank: (SearchHit) -> Int,
                                relatives: Relatives) -> [SearchHit] {
        guard !species.isEmpty, species.count < firstScreenRows, !species.contains(where: { rank($0) == 0 }) else { return [] }
        var seen = Set(species.map(\.item.id))
        var out: [SearchHit] = []
        for h in hits where h.match == .fuzzy && isForm(h) == 0 && seen.insert(h.item.id).inserted { out.append(h) }
        for h in species where h.language.isEmpty {
            for r in relatives(h.item) where seen.insert(r.id).inserted {
                out.append(SearchHit(item: r, match: .related, matched: h.matched, language: "", distance: 0))
            }
        }
        return Array(out.prefix(firstScreenRows - species.count))
    }

    /// Found as typed (whole, by its start, or inside a name), not with typos.
    static func isPrecise(_ h: SearchHit) -> Bool { h.distance == 0 && h.kind != .fuzzy }

    /// 1 for an alternate form, 0 for a species' default: what orders species first.
    static func isForm(_ h: SearchHit) -> Int { PokemonID.isDefaultForm(h.item.id) ? 0 : 1 }

    /// The first ``maxResults`` hits, with a relevance that falls with the rank.
    static func ranked(_ hits: [SearchHit]) -> [Ranked] {
        hits.prefix(Int(maxResults)).enumerated().map { rank, hit in
            let exact = hit.match == .exact
            return Ranked(item: hit.item, exact: exact, relevance: exact ? 1 : max(0.1, 0.9 - Double(rank) * 0.04))
        }
    }
}

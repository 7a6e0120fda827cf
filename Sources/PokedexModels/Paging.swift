/// `pokectl list --page N --per-page M` as arithmetic that cannot trap: any `Int` a person
/// types (9223372036854775807, -1, 0) gives an answer or says why not.
public enum Paging {
    /// The offset of page `page` (from 1) of `perPage` entries, or nil when it is past any
    /// list the service can hold (beyond `UInt32`); nil too for a page or size below 1.
    public static func offset(page: Int, perPage: Int) -> UInt32? {
        guard page >= 1, perPage >= 1 else { return nil }
        let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        guard !overflow, offset <= Int(UInt32.max) else { return nil }
        return UInt32(offset)
    }

    /// How many pages of `perPage` entries `total` entries make (at least 1: an empty list
    /// is one empty page).
    public static func pages(total: UInt32, perPage: Int) -> Int {
        guard perPage >= 1 else { return 1 }
        return max(1, Int(total) / perPage + (Int(total) % perPage == 0 ? 0 : 1))
    }

    /// Whether page `page` has entries, or is the first page of an empty list.
    public static func exists(page: Int, perPage: Int, total: UInt32) -> Bool {
        page >= 1 && page <= pages(total: total, perPage: perPage)
    }

    /// What to say about a page past the end, in the language of `words`.
    public static func pastTheEnd(page: Int, perPage: Int, total: UInt32, words w: Words = .english) -> String {
        let pages = pages(total: total, perPage: perPage)
        return pages == 1
            ? w.trf("page %s is past the end: there is 1 page of %s (%s Pokémon)", String(page), String(perPage), String(total))
            : w.trf("page %s is past the end: there are %s pages of %s (%s Pokémon)", String(page), String(pages), String(perPage), String(total))
    }
}

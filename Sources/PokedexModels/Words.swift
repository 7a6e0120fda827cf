/// The programs' own words in the reader's language (labels, key hints, notifications), and
/// the locale's decimal separator. The main builds it from gettext (`CLocale`); the parts
/// that write words take it, so they stay free of C and tests give them any language.
///
/// Every translatable text is written `words.tr("…")` or `words.trf("…%s…", value)`, which is
/// what `tools/update-po` extracts into `po/pokedexd.pot`.
public struct Words: Sendable {
    private let lookup: @Sendable (String) -> String
    private let pluralLookup: @Sendable (String, String, Int) -> String
    /// "." in English, "," in German.
    public let decimalSeparator: String

    /// `plural`: the form of (one, many) for a count, as the language's rule picks it; by
    /// default English's, each form through `lookup`.
    public init(decimalSeparator: String = ".", lookup: @escaping @Sendable (String) -> String,
                plural: (@Sendable (String, String, Int) -> String)? = nil) {
        self.lookup = lookup
        self.pluralLookup = plural ?? { one, many, n in lookup(n == 1 ? one : many) }
        self.decimalSeparator = decimalSeparator
    }

    /// The words as written in the source: English, with a point.
    public static let english = Words { $0 }

    /// `msgid` in the reader's language.
    public func tr(_ msgid: String) -> String { lookup(msgid) }

    /// `msgid` in the reader's language with each `%s` replaced by the next of `values`, in
    /// order (no other directive is read: a translation cannot make this read memory).
    public func trf(_ msgid: String, _ values: String...) -> String { format(lookup(msgid), values) }

    private func format(_ template: String, _ values: [String]) -> String {
        var out = ""
        var next = values.makeIterator()
        var percent = false
        for c in template {
            if percent {
                percent = false
                if c == "s" { out += next.next() ?? ""; continue }
                out.append("%")
            }
            if c == "%" { percent = true } else { out.append(c) }
        }
        if percent { out.append("%") }
        return out
    }

    /// ``trf(_:_:)`` of the form that `n` takes: `one` or `many` in English ("1 file",
    /// "3 files"), as many forms as the reader's language has in its catalogue. `n` is the
    /// first value.
    public func trn(_ one: String, _ many: String, _ n: Int, _ values: String...) -> String {
        format(pluralLookup(one, many, n), [String(n)] + values)
    }

    /// `n` tenths as `x.y` with the locale's separator: `0,4` in German.
    public func tenths(_ n: Int) -> String { "\(n / 10)\(decimalSeparator)\(abs(n % 10))" }
}

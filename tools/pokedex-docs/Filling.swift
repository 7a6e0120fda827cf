/// Long generated text on lines of at most ``width`` characters: the README's and the man
/// page's paragraphs reflow, and Debian's lintian wants every line of the source package under
/// 512 characters.
enum Filling {
    static let width = 100

    /// `text` broken at its spaces, never inside a Markdown code span (between backticks), the
    /// lines after the first starting with `indent`. A word longer than the width keeps its line.
    static func markdown(_ text: String, indent: String = "") -> String {
        fill(words(text, keepingCodeSpans: true), indent: indent)
    }

    /// roff text broken at its spaces, never after a word that ends a sentence (groff would
    /// take the line's end for one and widen the space); a line that would start with a
    /// request's `.` or `'` is escaped with `\&`.
    static func roff(_ text: String) -> String {
        noRequests(text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            fill(words(String(line), keepingCodeSpans: false), indent: "", breakingAfter: { !endsSentence($0) })
        }.joined(separator: "\n"))
    }

    /// roff text with no line taken for a request: one that starts with `.` or `'` is escaped
    /// with `\&`.
    static func noRequests(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }.joined(separator: "\n")
    }

    /// The text's words: split at single spaces (not inside a code span when asked); two spaces
    /// in a row leave an empty word, so that the line keeps them.
    static func words(_ text: String, keepingCodeSpans: Bool) -> [String] {
        var words: [String] = [], word = "", inCode = false
        for c in text {
            if c == "`", keepingCodeSpans { inCode.toggle() }
            if c == " ", !inCode {
                words.append(word)
                word = ""
            } else {
                word.append(c)
            }
        }
        words.append(word)
        return words
    }

    /// Whether groff reads a line ending in `word` as a sentence's end: `.`, `?` or `!`, then
    /// any closing quotes and brackets.
    static func endsSentence(_ word: String) -> Bool {
        let closing: Set<Character> = ["\"", "'", ")", "]", "*"]
        guard let last = word.reversed().first(where: { !closing.contains($0) }) else { return false }
        return ".?!".contains(last)
    }

    /// The words on lines of at most ``width`` (a word longer keeps its line), broken only after
    /// a word `breakingAfter` allows.
    static func fill(_ words: [String], indent: String, breakingAfter: (String) -> Bool = { _ in true }) -> String {
        var lines: [String] = [], line = ""
        for (i, word) in words.enumerated() {
            if i == 0 {
                line = word
            } else if !word.isEmpty, !line.isEmpty, line.count + 1 + word.count > width, breakingAfter(words[i - 1]) {
                lines.append(line)
                line = indent + word
            } else {
                line += " " + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

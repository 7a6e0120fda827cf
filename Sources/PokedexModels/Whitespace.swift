public extension StringProtocol {
    /// The text without the white space (spaces, tabs, line breaks, as Unicode counts them)
    /// at either end.
    func trimmingWhitespace() -> SubSequence {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return self[endIndex...] }
        return self[first...last]
    }
}

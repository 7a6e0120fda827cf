extension JSONReader {
    /// Values already read whole earlier in the same body, by where their bytes are, with what
    /// was made of them. A value whose bytes are the same bytes is the same value, and as valid
    /// as the first was: it is stepped over with one comparison rather than read again.
    ///
    /// For the small objects a body repeats hundreds of times: the thousand details of a
    /// `pokemon` body's `moves` each name one of four ways and one of thirty games, as
    /// `{"name": …, "url": …}` objects of 70 bytes whose every byte was checked each time.
    ///
    /// A value belongs to the body it was read in (it holds offsets into it): a `Recurring` is
    /// made for one read of one body, and lives no longer. A class, so that the readers of a
    /// value and of the values inside it can each keep theirs while both are under way; its
    /// fields are not checked for exclusive access at run time (one read owns it, and no method
    /// of it calls out).
    final class Recurring<Value> {
        // Each value kept, at the same index in the three: its glance, where its bytes are and
        // the depth it was read at (the same bytes deeper down could pass ``maxDepth``, where they
        // did not), and what was made of it.
        @exclusivity(unchecked) private var glances: [UInt64] = []
        @exclusivity(unchecked) private var spans: [(start: Int, count: Int, depth: Int)] = []
        @exclusivity(unchecked) private var values: [Value] = []
        /// Where a glance is taken: the eight bytes from where the first two values kept differ
        /// (a resource's name: past `{"name":"` as PokeAPI writes it, past a line's indentation in
        /// its pretty-printed dump), so that values of one shape rarely share a glance.
        @exclusivity(unchecked) private var glanceAt = 0
        private let capacity: Int

        /// - Parameter capacity: how many values it keeps (the first ones read); a value past it
        ///   is read every time, as without it.
        init(capacity: Int) { self.capacity = capacity }

        /// The shortest value kept.
        static var shortest: Int { 16 }
        /// The longest: longer values are compared more slowly than they are read.
        static var longest: Int { 512 }

        fileprivate func match(_ r: JSONReader) -> (count: Int, value: Value)? {
            guard !glances.isEmpty, r.end - r.i >= glanceAt + 8 else { return nil }
            let glance = Self.load(r.base + r.i + glanceAt)
            for k in glances.indices where glances[k] == glance {
                let s = spans[k]
                if s.depth == r.depth, r.end - r.i >= s.count, memoryEqual(r.base + r.i, r.base + s.start, s.count) {
                    return (s.count, values[k])
                }
            }
            return nil
        }

        fileprivate func keep(_ r: JSONReader, from start: Int, _ value: Value) {
            let count = r.i - start
            guard glances.count < capacity, count >= Self.shortest, count <= Self.longest else { return }
            if glances.count == 1 {
                let first = spans[0], shorter = min(first.count, count)
                var differ = 0
                while differ < shorter && r.base[first.start + differ] == r.base[start + differ] { differ += 1 }
                glanceAt = min(differ, shorter - 8)
                glances[0] = Self.load(r.base + first.start + glanceAt)
            }
            guard count >= glanceAt + 8 else { return }
            glances.append(Self.load(r.base + start + glanceAt))
            spans.append((start, count, r.depth))
            values.append(value)
        }

        private static func load(_ p: UnsafePointer<UInt8>) -> UInt64 { UnsafeRawPointer(p).loadUnaligned(as: UInt64.self) }
    }

    /// The value here, made by `read` from its bytes, or taken from `recurring` where the same
    /// bytes were read before in this body (and stepped over). A value `read` makes nil of is
    /// not kept; nor is one `read` threw on.
    mutating func recurring<Value>(_ recurring: Recurring<Value>,
                                   _ read: (inout JSONReader) throws(Failure) -> Value?) throws(Failure) -> Value? {
        if let (count, value) = recurring.match(self) {
            i += count
            return value
        }
        let start = i
        guard let value = try read(&self) else { return nil }
        recurring.keep(self, from: start, value)
        return value
    }
}

/// What the hand-written records (RecordJSON+Pokemon.swift, RecordJSON+Species.swift) are
/// written with: an object's members straight to a sink's bytes, as ``RecordJSON``'s `Encoder`
/// writes them.
extension RecordJSON {
    /// Writes an object's members straight to a sink's bytes.
    struct Members {
        let sink: Sink
        init(_ sink: Sink) { self.sink = sink }

        /// `"name":`, after a comma, or after the object's `{` where it is the `first`.
        func key(_ name: StaticString, first: Bool = false) {
            sink.bytes.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            sink.bytes.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { sink.bytes.append(contentsOf: $0) }
            sink.bytes.append(contentsOf: "\":".utf8)
        }

        func optional(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            key(name)
            sink.string(value)
        }

        func list<T>(_ items: [T], _ each: (Members, T) -> Void) {
            sink.bytes.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { sink.bytes.append(UInt8(ascii: ",")) }
                each(self, item)
            }
            sink.bytes.append(UInt8(ascii: "]"))
        }

        func strings(_ items: [String]) { list(items) { w, s in w.sink.string(s) } }

        func optional<N: BinaryInteger>(_ name: StaticString, _ value: N?) {
            guard let value else { return }
            key(name)
            sink.integer(value)
        }

        /// Ends an object: `{}` where no member was written (its `{` came with the first key).
        func close(empty: Bool) {
            if empty { sink.bytes.append(UInt8(ascii: "{")) }
            sink.bytes.append(UInt8(ascii: "}"))
        }

        /// A dictionary keyed by strings, in its own order (as `Dictionary.encode(to:)` gives
        /// them), each value written by `value`.
        func dictionary<V>(_ d: [String: V], _ value: (Members, V) -> Void) {
            var first = true
            for (k, v) in d {
                sink.bytes.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
                first = false
                sink.string(k)
                sink.bytes.append(UInt8(ascii: ":"))
                value(self, v)
            }
            close(empty: first)
        }

        func dictionary(_ d: [String: String]) { dictionary(d) { w, s in w.sink.string(s) } }

        func stats(_ items: [PokemonRecord.Stat]) {
            list(items) { w, s in
                w.key("name", first: true); w.sink.string(s.name)
                w.key("value"); w.sink.integer(s.value)
                w.sink.bytes.append(UInt8(ascii: "}"))
            }
        }

        /// A learnset's group as `Learnset.Group.encode(to:)` writes it: its empty lists left out.
        func group(_ g: Learnset.Group) {
            var first = true
            func ids(_ name: StaticString, _ ids: [UInt32]) {
                guard !ids.isEmpty else { return }
                key(name, first: first)
                first = false
                sink.integers(ids)
            }
            if !g.levelUp.isEmpty {
                key("l", first: first)
                first = false
                // Move and level in turn, as pairs.
                list(g.levelUp) { w, e in
                    w.sink.integer(e.move)
                    w.sink.bytes.append(UInt8(ascii: ","))
                    w.sink.integer(e.level)
                }
            }
            ids("m", g.machine)
            ids("e", g.egg)
            ids("t", g.tutor)
            close(empty: first)
        }
    }
}

/// Reads a JSON body in one pass over its bytes, building only what a decoder asks for.
///
/// PokeAPI's `pokemon` bodies are mostly what the service never reads: Pikachu's is 577 KB, of
/// which `moves` and `game_indices` are nearly all. `JSONDecoder` scanned all of it into a map
/// of every value first (about 50 MB/s); this reader steps over a value it is not asked for
/// with a scan that builds nothing, eight bytes at a time through strings.
///
/// Nothing is trusted: every byte is still checked, skipped or not. The whole body must be one
/// JSON value (RFC 8259): the structure, the separators, the numbers' grammar (no leading
/// zero), the literals, the escapes, no control character inside a string, every string UTF-8,
/// at most ``maxDepth`` levels, nothing after the value. A string a decoder reads must also have
/// its escaped surrogates paired. A value of the wrong type, or null where one is required,
/// fails the body, as it did with `JSONDecoder`. (`JSONDecoder` was laxer in what it skipped:
/// it let a leading zero, a bad escape, a control character or bytes that are not UTF-8 through
/// there. PokeAPI sends none of them; a body that has one is not JSON.)
struct JSONReader {
    /// Why a body could not be read: where, and what was wrong.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        let offset: Int
        var description: String { "\(message) at byte \(offset)" }
    }

    /// The keys a decoder reads from one object, by position: the rest are skipped.
    struct Keys: Sendable {
        fileprivate let names: [[UInt8]]
        /// Every name's bytes one after another, where each starts, and how long each is: a key
        /// is found by its length, then its bytes eight at a time (a body has 100,000 keys).
        private let bytes: [UInt8]
        private let starts: [Int]
        private let counts: [Int]
        init(_ names: String...) { self.init(names) }
        init(_ names: [String]) {
            self.names = names.map { Array($0.utf8) }
            bytes = self.names.flatMap { $0 }
            starts = self.names.reduce(into: [0]) { $0.append($0.last! + $1.count) }.dropLast()
            counts = self.names.map(\.count)
        }
        func index(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int? {
            bytes.withUnsafeBufferPointer { flat -> Int? in
                guard let base = flat.baseAddress else { return nil }
                for k in counts.indices where counts[k] == count && memoryEqual(base + starts[k], p, count) { return k }
                return nil
            }
        }
        func index(_ decoded: [UInt8]) -> Int? { names.firstIndex(of: decoded) }
    }

    /// As `JSONDecoder`'s.
    static let maxDepth = 512


    // Read and moved by the scanning steps (JSONReader+Scanning.swift), nothing else.
    let base: UnsafePointer<UInt8>
    let end: Int
    var i = 0
    var depth = 0

    private init(_ base: UnsafePointer<UInt8>, _ count: Int) {
        self.base = base
        self.end = count
    }

    /// Reads `bytes` as one JSON value with `body`, which must take all of it.
    static func read<T>(_ bytes: [UInt8], _ body: (inout JSONReader) throws(Failure) -> T) throws(Failure) -> T {
        let result: Result<T, Failure> = bytes.withUnsafeBufferPointer { buffer in
            guard let p = buffer.baseAddress, !buffer.isEmpty else { return .failure(Failure(message: "an empty body", offset: 0)) }
            var r = JSONReader(p, buffer.count)
            do throws(Failure) {
                r.skipSpace()
                let value = try body(&r)
                r.skipSpace()
                guard r.i == r.end else { throw r.fail("more after the value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: - Containers

    /// Reads an object, calling `each` with the position in `keys` of every key it names (in
    /// the body's order); every other member is checked and skipped.
    mutating func object(_ keys: Keys, _ each: (Int, inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        guard peek == UInt8(ascii: "{") else { throw fail("not an object") }
        try enter()
        i += 1
        skipSpace()
        if peek == UInt8(ascii: "}") { i += 1; depth -= 1; return }
        while true {
            guard peek == UInt8(ascii: "\"") else { throw fail("an object's key is not a string") }
            let key = try keyIndex(keys)
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw fail("no ':' after an object's key") }
            i += 1
            skipSpace()
            if let key { try each(key, &self) } else { try skip() }
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): i += 1; skipSpace()
            case UInt8(ascii: "}"): i += 1; depth -= 1; return
            default: throw fail("no ',' or '}' after an object's member")
            }
        }
    }

    /// Reads an array, calling `each` for every element; `each` must read or skip it.
    mutating func array(_ each: (inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        guard peek == UInt8(ascii: "[") else { throw fail("not an array") }
        try enter()
        i += 1
        skipSpace()
        if peek == UInt8(ascii: "]") { i += 1; depth -= 1; return }
        while true {
            try each(&self)
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): i += 1; skipSpace()
            case UInt8(ascii: "]"): i += 1; depth -= 1; return
            default: throw fail("no ',' or ']' after an array's element")
            }
        }
    }

    /// The failure of an object read to its end that lacks the required `key`.
    func missing(_ key: String) -> Failure { Failure(message: "an object with no \"\(key)\"", offset: i) }

    /// Consumes `null` and returns true if the value is null; otherwise reads nothing.
    mutating func null() throws(Failure) -> Bool {
        guard peek == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// `true` or `false`.
    mutating func bool() throws(Failure) -> Bool {
        if peek == UInt8(ascii: "t") { try literal("true"); return true }
        guard peek == UInt8(ascii: "f") else { throw fail("not true or false") }
        try literal("false")
        return false
    }

    // MARK: - Values

    mutating func string() throws(Failure) -> String { try string(stringToken()) }

    /// Where a string is in the body: read with ``string(_:)`` once it is known to be wanted
    /// (a flavour text, before its language says whether it is kept), or only checked with
    /// ``check(_:)``.
    struct StringToken {
        fileprivate let start: Int
        fileprivate let count: Int
        fileprivate let escaped: Bool
        /// The bytes between its quotes: its text's UTF-8 bytes, or more where it has escapes.
        var rawCount: Int { count }
    }

    mutating func stringToken() throws(Failure) -> StringToken {
        guard peek == UInt8(ascii: "\"") else { throw fail(peek == UInt8(ascii: "n") ? "null where a string is required" : "not a string") }
        let start = i + 1
        let escaped = try skipString()
        return StringToken(start: start, count: i - 1 - start, escaped: escaped)
    }

    /// The string a token marks.
    func string(_ token: StringToken) throws(Failure) -> String {
        // Its UTF-8 was checked as it was stepped over: read as it is, on the standard library's
        // fast path (`String(validating:)` is generic, its metadata looked up at every call:
        // 2% of a sync). An escape's bytes are checked here.
        guard token.escaped else { return String(decoding: UnsafeBufferPointer(start: base + token.start, count: token.count), as: UTF8.self) }
        guard let s = String(validating: try unescaped(token.start, token.count), as: UTF8.self) else {
            throw Failure(message: "a string that is not UTF-8", offset: token.start)
        }
        return s
    }

    /// Which of `keys` the string a token marks is, building no String; nil for none of them.
    func index(of token: StringToken, in keys: Keys) throws(Failure) -> Int? {
        token.escaped ? keys.index(try unescaped(token.start, token.count)) : keys.index(base + token.start, token.count)
    }

    /// Checks a string not kept as ``string(_:)`` would read it (its escapes' surrogates paired;
    /// its UTF-8 was checked as it was stepped over), building nothing.
    func check(_ token: StringToken) throws(Failure) {
        guard token.escaped else { return }  // no backslash in it: nothing to pair
        var k = token.start
        let stop = token.start + token.count
        while k < stop {
            let b = base[k]
            if b >= 0x80 { k += 1; continue }  // UTF-8, checked as the string was stepped over
            guard b == UInt8(ascii: "\\") else { k += 1; continue }
            guard base[k + 1] == UInt8(ascii: "u") else { k += 2; continue }
            let unit = Self.hex4(base, k + 2)
            k += 6
            if (0xD800...0xDBFF).contains(unit) {
                guard stop - k >= 6, base[k] == UInt8(ascii: "\\"), base[k + 1] == UInt8(ascii: "u"),
                      (0xDC00...0xDFFF).contains(Self.hex4(base, k + 2)) else {
                    throw Failure(message: "an unpaired surrogate in a string", offset: k)
                }
                k += 6
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw Failure(message: "an unpaired surrogate in a string", offset: k)
            }
        }
    }

    /// The four hex digits at `at`, already checked by ``skipString()``.
    static func hex4(_ base: UnsafePointer<UInt8>, _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 4 | (hexValue(base[at + $1]) ?? 0) }
    }

    /// A string, or nil for null.
    mutating func optionalString() throws(Failure) -> String? { try null() ? nil : string() }

    /// A whole number in `0...UInt32.max`.
    mutating func uint32() throws(Failure) -> UInt32 {
        let v = try integer()
        guard let u = UInt32(exactly: v) else { throw fail("\(v) is out of range") }
        return u
    }

    /// A whole number that fits in an `Int`: written as one (`25`) or not (`2.5e1`, `25.0`), as
    /// `JSONDecoder` took it; `2.5` is not whole.
    mutating func integer() throws(Failure) -> Int {
        guard peek == UInt8(ascii: "-") || (peek >= UInt8(ascii: "0") && peek <= UInt8(ascii: "9")) else {
            throw fail(peek == UInt8(ascii: "n") ? "null where a number is required" : "not a number")
        }
        let start = i
        // Digits alone (PokeAPI's every number), too few to overflow: read as they are.
        if try skipNumber(), i - start <= 18 {
            var k = start
            let negative = base[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            var v = 0
            while k < i { v = v * 10 + Int(base[k] &- UInt8(ascii: "0")); k += 1 }
            return negative ? -v : v
        }
        var k = start
        let negative = base[k] == UInt8(ascii: "-")
        if negative { k += 1 }
        // The digits before and after the point, as one run, and the power of ten they are scaled by.
        var digits: [UInt8] = []
        var scale = 0
        var inFraction = false
        while k < i, base[k] != UInt8(ascii: "e"), base[k] != UInt8(ascii: "E") {
            if base[k] == UInt8(ascii: ".") { inFraction = true } else { digits.append(base[k] - UInt8(ascii: "0")); if inFraction { scale -= 1 } }
            k += 1
        }
        if k < i {
            k += 1
            var sign = 1
            if base[k] == UInt8(ascii: "-") { sign = -1; k += 1 } else if base[k] == UInt8(ascii: "+") { k += 1 }
            var e = 0
            while k < i {
                e = e * 10 + Int(base[k] - UInt8(ascii: "0"))
                guard e < 1_000 else { throw Failure(message: "a number out of range", offset: start) }
                k += 1
            }
            scale += sign * e
        }
        while let last = digits.last, scale < 0 {
            guard last == 0 else { throw Failure(message: "not a whole number", offset: start) }
            digits.removeLast()
            scale += 1
        }
        if digits.isEmpty { return 0 }
        if scale < 0 { throw Failure(message: "not a whole number", offset: start) }
        var v = 0
        for d in digits + [UInt8](repeating: 0, count: digits.allSatisfy({ $0 == 0 }) ? 0 : scale) {
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (sum, o2) = m.addingReportingOverflow(Int(d))
            guard !o1, !o2 else { throw Failure(message: "a number out of range", offset: start) }
            v = sum
        }
        return negative ? -v : v
    }

    /// Checks the value here, whatever it is, and steps over it, building nothing.
    mutating func skip() throws(Failure) {
        switch peek {
        case UInt8(ascii: "\""): _ = try skipString()
        // The loops of object(_:_:) and array(_:) again, with nothing to call per member: through
        // them, skipping ran at 420 MB/s rather than 600 (bench: pokedex-bench decode).
        case UInt8(ascii: "{"):
            try enter()
            i += 1
            skipSpace()
            if peek == UInt8(ascii: "}") { i += 1; depth -= 1; return }
            while true {
                guard peek == UInt8(ascii: "\"") else { throw fail("an object's key is not a string") }
                _ = try skipString()
                skipSpace()
                guard peek == UInt8(ascii: ":") else { throw fail("no ':' after an object's key") }
                i += 1
                skipSpace()
                try skip()
                skipSpace()
                switch peek {
                case UInt8(ascii: ","): i += 1; skipSpace()
                case UInt8(ascii: "}"): i += 1; depth -= 1; return
                default: throw fail("no ',' or '}' after an object's member")
                }
            }
        case UInt8(ascii: "["):
            try enter()
            i += 1
            skipSpace()
            if peek == UInt8(ascii: "]") { i += 1; depth -= 1; return }
            while true {
                try skip()
                skipSpace()
                switch peek {
                case UInt8(ascii: ","): i += 1; skipSpace()
                case UInt8(ascii: "]"): i += 1; depth -= 1; return
                default: throw fail("no ',' or ']' after an array's element")
                }
            }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try skipNumber()
        default: throw fail(i < end ? "not a JSON value" : "the body ends early")
        }
    }
}

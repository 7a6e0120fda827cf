/// How ``JSONReader`` steps over the bytes: white space, literals, numbers, strings (eight bytes
/// at a time, checking their escapes and their UTF-8), and undoing a string's escapes.
extension JSONReader {

    /// The byte here; 0 past the end (never a valid byte where it is looked at).
    var peek: UInt8 { i < end ? base[i] : 0 }

    func fail(_ message: String) -> Failure { Failure(message: i < end ? message : "the body ends early", offset: i) }

    mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nested deeper than \(Self.maxDepth) levels") }
    }

    /// Inlined: it runs between any two tokens, where PokeAPI writes one space or none, and the
    /// call cost more than the work (issue 38).
    /// A body written with indentation (PokeAPI's dump: a third of its bytes are spaces) has
    /// its runs of spaces stepped over eight at a time, the run's end found in its last eight.
    @inline(__always)
    mutating func skipSpace() {
        while i < end {
            switch base[i] {
            case 0x20, 0x0A, 0x0D, 0x09:
                i += 1
                while end - i >= 8 {
                    // A zero byte for each space; the first other byte ends the run.
                    let others = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ 0x2020_2020_2020_2020
                    guard others == 0 else { i += others.trailingZeroBitCount >> 3; break }
                    i += 8
                }
            default: return
            }
        }
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard end - i >= n, memoryEqual(base + i, word.utf8Start, n) else { throw fail("not a JSON value") }
        i += n
    }

    /// Steps over a number, checking its grammar; returns whether it is whole (no fraction or
    /// exponent).
    mutating func skipNumber() throws(Failure) -> Bool {
        if peek == UInt8(ascii: "-") { i += 1 }
        if peek == UInt8(ascii: "0") {
            i += 1
        } else if peek >= UInt8(ascii: "1") && peek <= UInt8(ascii: "9") {
            while isDigit(peek) { i += 1 }
        } else {
            throw fail("a number with no digits")
        }
        var whole = true
        if peek == UInt8(ascii: ".") {
            i += 1
            guard isDigit(peek) else { throw fail("a number with no digits after '.'") }
            while isDigit(peek) { i += 1 }
            whole = false
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard isDigit(peek) else { throw fail("a number with no digits in its exponent") }
            while isDigit(peek) { i += 1 }
            whole = false
        }
        return whole
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// Steps over a string from its opening quote to past its closing one, checking its
    /// escapes and that it holds no control character; returns whether it had escapes.
    mutating func skipString() throws(Failure) -> Bool {
        i += 1
        var escaped = false
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control character or
            // outside ASCII; then straight to the first byte that is one.
            while end - i >= 8 {
                let special = Self.special(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                guard special == 0 else { i += special.trailingZeroBitCount >> 3; break }
                i += 8
            }
            guard i < end else { throw fail("a string with no end") }
            let b = base[i]
            if b == UInt8(ascii: "\"") { i += 1; return escaped }
            if b == UInt8(ascii: "\\") {
                escaped = true
                i += 1
                guard i < end else { throw fail("a string with no end") }
                switch base[i] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 1
                case UInt8(ascii: "u"):
                    guard end - i >= 5, (1...4).allSatisfy({ Self.hexValue(base[i + $0]) != nil }) else { throw fail("a bad \\u escape") }
                    i += 5
                default:
                    throw fail("a bad escape in a string")
                }
            } else if b < 0x20 {
                throw fail("a control character in a string")
            } else if b >= 0x80 {
                // A run of letters outside ASCII (a Japanese or Korean flavour text): sequence
                // after sequence while the next byte is one, before eight bytes at a time again.
                repeat { i += try utf8Sequence() } while i < end && base[i] >= 0x80
            } else {
                i += 1
            }
        }
    }

    /// The high bit of each byte of `w` (little-endian) that is `"`, `\`, below 0x20 or above
    /// 0x7F; 0 for none. Bytes after the first one may be marked wrongly (a borrow carries
    /// up), never the first, nor any before it: its trailing zeros say where it is.
    private static func special(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let quote = zeroByte(w ^ (ones &* 0x22)), backslash = zeroByte(w ^ (ones &* 0x5C))
        let control = (w &- ones &* 0x20) & ~w & highs
        return quote | backslash | control | (w & highs)
    }

    /// The length of the UTF-8 sequence here (RFC 3629: no overlong form, no surrogate, nothing
    /// past U+10FFFF), or a failure: a string must be UTF-8 whether it is read or skipped.
    private func utf8Sequence() throws(Failure) -> Int {
        let lead = base[i]
        let (n, low, high): (Int, UInt8, UInt8) = switch lead {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xE1...0xEF: (3, 0x80, 0xBF)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        default: (0, 0, 0)
        }
        guard n > 0, end - i >= n, (low...high).contains(base[i + 1]),
              (2..<n).allSatisfy({ (0x80...0xBF).contains(base[i + $0]) }) else { throw fail("a string that is not UTF-8") }
        return n
    }

    static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// The key here, by its position in `keys`; nil for a key not asked for.
    mutating func keyIndex(_ keys: Keys) throws(Failure) -> Int? {
        let start = i + 1
        let escaped = try skipString()
        let count = i - 1 - start
        return escaped ? keys.index(try unescaped(start, count)) : keys.index(base + start, count)
    }

    /// The bytes of a string (already checked by ``skipString()``) with its escapes undone.
    func unescaped(_ start: Int, _ count: Int) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var k = start
        let stop = start + count
        func hex4(_ at: Int) -> UInt32 { Self.hex4(base, at + 1) }
        while k < stop {
            let b = base[k]
            guard b == UInt8(ascii: "\\") else { out.append(b); k += 1; continue }
            let e = base[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(k - 1)
                k += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by a low one: together, one scalar.
                    guard stop - k >= 6, base[k] == UInt8(ascii: "\\"), base[k + 1] == UInt8(ascii: "u") else {
                        throw Failure(message: "an unpaired surrogate in a string", offset: k)
                    }
                    let low = hex4(k + 1)
                    guard (0xDC00...0xDFFF).contains(low) else { throw Failure(message: "an unpaired surrogate in a string", offset: k) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    k += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw Failure(message: "an unpaired surrogate in a string", offset: k)
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default: out.append(e)  // " \ /
            }
        }
        return out
    }
}

/// Whether `count` bytes at `a` and `b` are the same: eight at a time, then one at a time.
func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var k = 0
    while count - k >= 8 {
        guard UnsafeRawPointer(a + k).loadUnaligned(as: UInt64.self) == UnsafeRawPointer(b + k).loadUnaligned(as: UInt64.self) else { return false }
        k += 8
    }
    while k < count {
        guard a[k] == b[k] else { return false }
        k += 1
    }
    return true
}

/// The bytes of an ASCII header, as the network's readers take them apart: `Cache-Control`'s
/// parts and curl's header lines.
package enum ASCIIBytes {
    /// Space, tab, LF, VT, FF, CR: what `trimmingWhitespace` cuts of an ASCII text.
    @inlinable package static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (0x09...0x0D).contains(c) }

    /// An ASCII capital as its small letter; any other byte as it is.
    @inlinable package static func lowered(_ c: UInt8) -> UInt8 { (0x41...0x5A).contains(c) ? c | 0x20 : c }

    /// `range` of `b` without the white space at either end.
    @inlinable package static func trimmed(_ range: Range<Int>, in b: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi, isSpace(b[lo]) { lo += 1 }
        while hi > lo, isSpace(b[hi - 1]) { hi -= 1 }
        return lo..<hi
    }
}

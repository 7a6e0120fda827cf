import CCurlShims
import PokedexLocks
import PokedexNetwork

/// Undoes a body's `Content-Encoding` in the caller's task, off the loop.
///
/// curl would inflate a gzip body on the loop thread as it arrives: for a sync that is 421 MB of
/// JSON out of 8 MB on the wire, with every bus call waiting behind it. The loop now keeps the
/// body as it came (`CURLOPT_HTTP_CONTENT_DECODING` off) and the task that asked for it inflates
/// it, on one of the cooperative pool's threads (as many as there are cores).
///
/// The encodings asked for (`Accept-Encoding`) are the ones undone here: gzip and deflate (with
/// a zlib header, or bare, as some servers send it). The result is capped as the body is: past
/// `maxBytes`, it is refused as too large, so a small body cannot inflate into a large one.
enum ContentDecoding {
    /// What `Accept-Encoding` offers.
    static let accepted = "gzip, deflate"

    static func content(of response: HTTPResponse, maxBytes: Int) throws(TransportFailure) -> [UInt8] {
        switch response.contentEncoding {
        case "identity": return response.body
        case "gzip", "x-gzip": return try inflate(response.body, whole: .gzip, maxBytes: maxBytes)
        case "deflate":
            // RFC 9110 says zlib; some servers send a bare deflate stream.
            do { return try inflate(response.body, whole: .zlib, maxBytes: maxBytes) } catch .other { return try inflate(response.body, whole: .raw, maxBytes: maxBytes) }
        case let other:
            throw .unaskedEncoding(other)
        }
    }

    /// Buffers given back, for the next bodies: as many as decode at once (one a core), each
    /// kept only up to ``maxSpareBytes``.
    private static let spares = Mutex<[[UInt8]]>([])
    static let maxSpares = 4
    static let maxSpareBytes = 2 << 20

    /// A buffer of `count` bytes to inflate into: a spare one, its bytes as they were (what is
    /// not written is cut off), grown with zeros where it is short.
    private static func spareBuffer(count: Int) -> [UInt8] {
        var b = spares.withLock { $0.popLast() } ?? []
        if b.count > count {
            b.removeLast(b.count - count)
        } else if b.count < count {
            b.append(contentsOf: repeatElement(0, count: count - b.count))
        }
        return b
    }

    /// The content of a body, decoded and no longer needed: its buffer serves the next one.
    static func recycle(_ content: [UInt8]) {
        guard content.capacity <= maxSpareBytes else { return }
        spares.withLock { if $0.count < maxSpares { $0.append(content) } }
    }

    /// The size a gzip stream says it inflates to (its trailer; modulo 4 GiB, and not trusted:
    /// only the first guess of room), within `1...maxBytes`.
    private static func sizeHint(_ body: [UInt8], maxBytes: Int) -> Int {
        guard body.count >= 18, body[0] == 0x1F, body[1] == 0x8B else { return min(maxBytes, max(4096, body.count * 8)) }
        let n = body.count
        let size = Int(body[n - 4]) | Int(body[n - 3]) << 8 | Int(body[n - 2]) << 16 | Int(body[n - 1]) << 24
        return min(maxBytes, max(1, size))
    }

    enum Format {
        case gzip, zlib, raw
        var code: Int32 { switch self { case .gzip: Int32(PDX_WHOLE_GZIP); case .zlib: Int32(PDX_WHOLE_ZLIB); case .raw: Int32(PDX_WHOLE_RAW) } }
    }

    /// A complete body inflated at once by libdeflate, straight into the buffer it is answered
    /// in; zlib's streaming (``inflateStreaming(_:raw:maxBytes:)``) only where libdeflate cannot say what
    /// it is (damaged data, a gzip trailer that lies, a second member), so its errors stay those.
    static func inflate(_ body: [UInt8], whole format: Format, maxBytes: Int) throws(TransportFailure) -> [UInt8] {
        // gzip says its size (not trusted: the first guess of room, and a body that inflates to
        // more is refused, not grown into); zlib and bare deflate do not, so their room grows.
        var room = format == .gzip ? sizeHint(body, maxBytes: maxBytes) : min(maxBytes, max(4096, body.count.multipliedReportingOverflow(by: 8).partialValue))
        while true {
            var out = spareBuffer(count: room)
            var written = 0
            let rc = body.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { output in
                    pdx_inflate_whole(format.code, input.baseAddress, input.count, output.baseAddress, output.count, &written)
                }
            }
            switch rc {
            case Int32(PDX_WHOLE_DONE):
                out.removeLast(out.count - min(written, out.count))
                return out
            case Int32(PDX_WHOLE_NO_ROOM) where room >= maxBytes:
                recycle(out)
                throw .tooLarge("the body inflates to more than \(maxBytes) bytes")
            case Int32(PDX_WHOLE_NO_ROOM) where format != .gzip:
                recycle(out)
                room = min(maxBytes, room.multipliedReportingOverflow(by: 4).partialValue)
            case Int32(PDX_WHOLE_NO_MEMORY):
                recycle(out)
                throw .other("no memory to inflate a body")
            default:
                recycle(out)
                return try inflateStreaming(body, raw: format == .raw, maxBytes: maxBytes)
            }
        }
    }

    /// zlib's streaming inflate, a chunk at a time: a body libdeflate would not take whole.
    static func inflateStreaming(_ body: [UInt8], raw: Bool, maxBytes: Int) throws(TransportFailure) -> [UInt8] {
        guard let stream = pdx_inflate_begin(raw ? 1 : 0) else { throw .other("no memory to inflate a body") }
        defer { pdx_inflate_end(stream) }
        var read = 0
        var ended = false
        /// Inflates into `room` bytes at `out`; returns how many were written.
        func run(_ out: UnsafeMutablePointer<UInt8>, _ room: Int) throws(TransportFailure) -> Int {
            var written = 0
            while !ended && written < room {
                var inUsed = 0, outUsed = 0
                let rc = body.withUnsafeBufferPointer { input in
                    pdx_inflate_run(stream, input.baseAddress.map { $0 + read }, input.count - read, &inUsed, out + written, room - written, &outUsed)
                }
                read += inUsed
                written += outUsed
                switch rc {
                case 1:
                    guard read == body.count else { throw .other("\(body.count - read) bytes after the end of a compressed body") }
                    ended = true
                case 0:
                    // No progress with room left: the input is used up before the stream's end.
                    if inUsed == 0 && outUsed == 0 { throw .other("a compressed body that ends early") }
                default:
                    throw .other("a compressed body that is not \(raw ? "deflate" : "gzip or zlib") data")
                }
            }
            return written
        }
        // Into a buffer a finished decode gave back (``recycle(_:)``): a new 600 KB array is
        // fresh pages from the kernel each time, and their faults cost as much as the inflate.
        var out = spareBuffer(count: 0)
        out.reserveCapacity(sizeHint(body, maxBytes: maxBytes) + 64)
        let failure: TransportFailure? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32 << 10) { chunk in
            do throws(TransportFailure) {
                while !ended {
                    let n = try run(chunk.baseAddress!, chunk.count)
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[..<n]))
                    guard out.count <= maxBytes else { throw .tooLarge("the body inflates to more than \(maxBytes) bytes") }
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return out
    }
}

/// A key as a person pressed it.
public enum Key: Equatable, Sendable {
    case char(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, tab, delete
    /// Shift-Tab (`CSI Z`).
    case backTab
    /// Ctrl with a letter: `.control("c")`.
    case control(Character)
}

/// A mouse report (xterm SGR mode, 1006): column and row from 0.
public struct MouseEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case press, release, wheelUp, wheelDown, other }
    public var kind: Kind
    public var x: Int
    public var y: Int
    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}

public enum InputEvent: Equatable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
}

/// Bytes from a terminal in raw mode, turned into keys and mouse reports. A lone ESC cannot be
/// told from the start of a sequence until a moment passes: ``pendingEscape`` says one is
/// waiting, and ``flush()`` gives it up as the Esc key.
public struct InputDecoder: Sendable {
    private var buffer: [UInt8] = []

    public init() {}

    /// Whether the bytes so far end in what may be the start of an escape sequence.
    public var pendingEscape: Bool { buffer.first == 0x1B }

    public mutating func feed(_ bytes: [UInt8]) -> [InputEvent] {
        buffer += bytes
        var out: [InputEvent] = []
        var start = 0
        while start < buffer.count {
            // At most one sequence's worth is looked at: however the bytes were split into
            // reads, the same events come out.
            let window = Array(buffer[start..<min(buffer.count, start + Self.maxSequence)])
            guard let (event, used) = Self.decode(window) else { break }  // an unfinished sequence
            start += used
            if let event { out.append(event) }
        }
        buffer.removeFirst(start)
        return out
    }

    /// Gives up waiting: what is left is the Esc key (and whatever followed it).
    public mutating func flush() -> [InputEvent] {
        guard !buffer.isEmpty else { return [] }
        var out: [InputEvent] = []
        if buffer.first == 0x1B {
            out.append(.key(.escape))
            buffer.removeFirst()
        }
        let rest = buffer
        buffer = []
        return out + feed(rest)
    }

    /// The first event in `b` and the bytes it took; nil when more bytes are needed.
    static func decode(_ b: [UInt8]) -> (InputEvent?, Int)? {
        let c = b[0]
        switch c {
        case 0x1B:
            guard b.count >= 2 else { return nil }
            if b[1] == 0x5B || b[1] == 0x4F { return csi(b) }
            // Esc, then another key typed (or sent) at once: Esc, and the key on its own.
            return (.key(.escape), 1)
        case 0x0D, 0x0A: return (.key(.enter), 1)
        case 0x09: return (.key(.tab), 1)
        case 0x7F, 0x08: return (.key(.backspace), 1)
        case 0x01...0x1A: return (.key(.control(Character(Unicode.Scalar(c + 0x60)))), 1)
        case 0x00, 0x1C...0x1F: return (nil, 1)
        default:
            // One UTF-8 character.
            let n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
            guard b.count >= n else { return nil }
            guard let s = String(validating: b[0..<n], as: UTF8.self), let ch = s.first else { return (nil, 1) }
            return (.key(.char(ch)), n)
        }
    }

    /// The longest escape sequence taken: one without its final byte by then is dropped.
    static let maxSequence = 64

    /// The largest mouse button code or coordinate taken as it is (SGR reports are 1-based
    /// cells; no terminal is this big).
    static let maxCoordinate = 65_536

    /// The final bytes of the cursor keys, the same after `ESC [` and `ESC O`: A B C D H F.
    static let cursorKeys: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end]

    /// `ESC [ …` or `ESC O …`: cursor keys, paging keys, SGR mouse.
    static func csi(_ b: [UInt8]) -> (InputEvent?, Int)? {
        var i = 2
        while i < b.count, !(0x40...0x7E).contains(b[i]) || (i == 2 && b[i] == 0x3C) { i += 1 }
        // Nothing a person types is that long: a runaway sequence is dropped, at the same byte
        // whichever way it arrived.
        guard i < b.count else { return b.count >= maxSequence ? (nil, maxSequence) : nil }
        let final = b[i]
        let params = String(decoding: b[2..<i], as: UTF8.self)
        let used = i + 1
        if b[1] == 0x4F { return (cursorKeys[final].map { .key($0) }, used) }  // SS3: ESC O A …
        if params.hasPrefix("<"), final == 0x4D || final == 0x6D {  // SGR mouse: ESC [ < b ; x ; y M/m
            // Clamped before any arithmetic: a report is the terminal's word, not a promise
            // (`ESC [ < 0 ; -9223372036854775808 ; 1 M` is as well-formed as any).
            let f = params.dropFirst().split(separator: ";").compactMap { Int($0) }.map { min(max($0, 0), Self.maxCoordinate) }
            guard f.count == 3 else { return (nil, used) }
            let kind: MouseEvent.Kind
            switch (f[0] & ~0x1C, final) {  // modifiers (shift, alt, ctrl) aside
            case (64, _): kind = .wheelUp
            case (65, _): kind = .wheelDown
            case (0, 0x4D): kind = .press
            case (0, 0x6D): kind = .release
            default: kind = .other
            }
            return (.mouse(MouseEvent(kind, x: f[1] - 1, y: f[2] - 1)), used)
        }
        if let key = cursorKeys[final] { return (.key(key), used) }
        switch final {
        case 0x5A: return (.key(.backTab), used)
        case 0x7E:
            switch params.split(separator: ";").first.flatMap({ Int($0) }) {
            case 1, 7: return (.key(.home), used)
            case 4, 8: return (.key(.end), used)
            case 3: return (.key(.delete), used)
            case 5: return (.key(.pageUp), used)
            case 6: return (.key(.pageDown), used)
            default: return (nil, used)
            }
        default: return (nil, used)
        }
    }
}

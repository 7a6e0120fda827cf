import Glibc

/// Where a command's text goes: the process's stdout (through stdio's buffer, as `print`
/// writes) or stderr (unbuffered, a message at a time), or a buffer a test reads back.
final class TextStream {
    enum Target { case standardOutput, standardError, buffer }
    let target: Target
    /// What was written, for a ``Target/buffer``.
    private(set) var text = ""

    init(_ target: Target) { self.target = target }

    func write(_ s: String) {
        switch target {
        case .standardOutput: print(s, terminator: "")
        case .standardError: _ = s.withCString { Glibc.write(2, $0, strlen($0)) }
        case .buffer: text += s
        }
    }

    /// `s` and a newline.
    func line(_ s: String = "") { write(s + "\n") }

    /// What was written so far reaches its reader now (a progress bar, a followed line).
    func flush() { if target == .standardOutput { fflush(nil) } }
}

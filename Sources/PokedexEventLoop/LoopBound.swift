/// State that belongs to one event loop's thread, in the manner of swift-nio's `NIOLoopBound`:
/// the box may travel to any thread, but its value is reached only on the loop's thread (or
/// before the loop runs, while the thread that will run it sets up). That is checked on every
/// access, in release builds too: a wrong thread traps at once, where an unchecked object
/// would corrupt its dictionaries some time later.
///
/// Objects that live on the loop (the bus server, its pending calls, curl's multi handle)
/// keep their mutable state and C handles in one `LoopBound`, and so are `Sendable` without
/// `@unchecked`.
public final class LoopBound<Value>: @unchecked Sendable {
    // @unchecked: `value` is reached only through `loop.preconditionInLoop()`, so from one
    // thread at a time; that is what this type exists to check, and no checked form can.
    public let loop: EventLoop
    private var stored: Value

    public init(_ value: Value, loop: EventLoop) {
        self.loop = loop
        stored = value
    }

    /// The value, read or changed in place; on the loop thread only.
    public var value: Value {
        get {
            loop.preconditionInLoop()
            return stored
        }
        _modify {
            loop.preconditionInLoop()
            yield &stored
        }
    }

    /// The value, where no other reference to its owner can exist any more (the owner's
    /// `deinit`, wherever the last reference went): no thread check is needed or possible.
    public var valueAtTeardown: Value {
        get { stored }
        _modify { yield &stored }
    }
}

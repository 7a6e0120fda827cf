import CSystemd
import Glibc

/// One child waited for; its source is released with it.
final class ChildWatch {
    let pid: pid_t
    weak var loop: EventLoop?
    var source: OpaquePointer?
    let exited: @Sendable (Int32) -> Void
    init(pid: pid_t, loop: EventLoop, exited: @escaping @Sendable (Int32) -> Void) {
        self.pid = pid
        self.loop = loop
        self.exited = exited
    }
    deinit { sd_event_source_disable_unref(source) }
}

/// A live event source; disabled and released with this object.
public final class EventSource {
    final class Box {
        var io: ((UInt32) -> Void)?
        var fire: (() -> Void)?
        init(io: ((UInt32) -> Void)? = nil, fire: (() -> Void)? = nil) {
            self.io = io
            self.fire = fire
        }
    }

    private var source: OpaquePointer?
    private let box: Box?
    /// A manual clock's timer: what takes it off the clock.
    private var cancelTimer: (() -> Void)?

    init(source: OpaquePointer, box: Box) {
        self.source = source
        self.box = box
    }

    /// A ``ManualLoopClock``'s timer.
    init(cancel: @escaping () -> Void) {
        box = nil
        cancelTimer = cancel
    }

    /// Changes the events a file descriptor source waits for.
    public func setEvents(_ events: UInt32) { sd_event_source_set_io_events(source, events) }

    /// Turns a source on or off (``EventLoop/whenIdle(_:)``'s start off).
    public func setEnabled(_ on: Bool) { sd_event_source_set_enabled(source, Int32(on ? SD_EVENT_ON : SD_EVENT_OFF)) }

    /// Turns a source on until it has fired once (``EventLoop/nextTurn(_:)``'s).
    public func fireOnce() { sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT)) }

    /// Sets a timer (``EventLoop/networkTimer(after:_:)``'s) to fire once, `microseconds` from
    /// now, whether it fired, was turned off or is still waiting. False where it cannot be (a
    /// source released, a manual clock's timer, libsystemd's refusal): make another.
    public func rearm(after microseconds: UInt64) -> Bool {
        guard let source else { return false }
        return sd_event_source_set_time_relative(source, microseconds) >= 0
            && sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT)) >= 0
    }

    /// Stops and releases the source now.
    public func cancel() {
        sd_event_source_disable_unref(source)
        source = nil
        cancelTimer?()
        cancelTimer = nil
    }

    deinit { cancel() }
}

/// A libsystemd call failed.
public struct EventLoopError: Error, CustomStringConvertible {
    public let call: String
    public let code: Int32
    public init(_ call: String, _ code: Int32) {
        self.call = call
        self.code = code
    }
    public var description: String { "\(call) failed: \(String(cString: strerror(-code)))" }

    /// sd-event takes no new source once the loop is exiting (`ESTALE`): nothing would fire,
    /// and nothing is left to wait for it.
    public var loopEnding: Bool { code == -ESTALE }
}

/// epoll event bits, for ``EventLoop/watch(fd:events:_:)``.
public enum IOEvents {
    public static let readable = UInt32(EPOLLIN.rawValue)
    public static let writable = UInt32(EPOLLOUT.rawValue)
    public static let error = UInt32(EPOLLERR.rawValue)
    public static let hangUp = UInt32(EPOLLHUP.rawValue)
}

/// What the watchdog's timer sends, and how often.
final class WatchdogPing {
    let manager: ServiceManager
    let half: UInt64
    init(manager: ServiceManager, half: UInt64) {
        self.manager = manager
        self.half = half
    }
}

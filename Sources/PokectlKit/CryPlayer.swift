import Glibc
import PokedexProcess

/// Plays a cry through the desktop's sound server (PipeWire or PulseAudio), never waiting for
/// it: the player runs in a session of its own, so the terminal is free at once and a card
/// can open the next while it plays. With no sound server there is nothing to play into, and
/// the caller says so in one line.
enum CryPlayer {
    enum Outcome: Equatable {
        /// Playing, with this player.
        case playing(String)
        /// Why not: no sound server, or no player for it.
        case silent(String)
    }

    /// The sound server the session has: PipeWire's socket, else PulseAudio's (also what
    /// PipeWire's pulse layer answers on), or `PULSE_SERVER`; nil when there is none.
    static func soundServer(_ environment: [String: String]) -> (pipewire: Bool, pulse: Bool)? {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let pipewire = runtime.map { isSocket($0 + "/" + (environment["PIPEWIRE_REMOTE"] ?? "pipewire-0")) } ?? false
        let pulse = !(environment["PULSE_SERVER"] ?? "").isEmpty || (runtime.map { isSocket($0 + "/pulse/native") } ?? false)
        return pipewire || pulse ? (pipewire, pulse) : nil
    }

    /// The players, best first: PipeWire's own, PulseAudio's (PipeWire answers it too), then
    /// libcanberra's, which goes through either.
    static func players(pipewire: Bool, pulse: Bool) -> [[String]] {
        // A short buffer: a cry of a second is heard at once, not after the 350 ms PulseAudio
        // would fill first (pw-play starts within a quantum anyway).
        (pipewire ? [["pw-play"]] : []) + (pulse ? [["paplay", "--latency-msec=50"]] : []) + [["canberra-gtk-play", "-f"]]
    }

    static func play(_ path: String, environment: [String: String]) -> Outcome {
        guard let server = soundServer(environment) else {
            return .silent(Language.words.tr("no sound server (PipeWire or PulseAudio) in this session: the cry is not played"))
        }
        for player in players(pipewire: server.pipewire, pulse: server.pulse) {
            guard let program = find(player[0], in: environment["PATH"] ?? "/usr/bin:/bin") else { continue }
            if ChildProcess.spawn([program] + player.dropFirst() + [path], detached: true) != nil { return .playing(player[0]) }
        }
        return .silent(Language.words.tr("no player for the sound server (install pipewire-bin or pulseaudio-utils): the cry is not played"))
    }

    /// `name`'s path in `PATH`, if it is there and executable.
    static func find(_ name: String, in path: String) -> String? {
        for dir in path.split(separator: ":") where dir.hasPrefix("/") {
            let candidate = dir + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private static func isSocket(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK
    }
}

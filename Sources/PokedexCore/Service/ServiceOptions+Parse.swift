import FoundationEssentials

/// What `pokedexd`'s command line asks for.
public enum ServiceCommand: Sendable {
    case run(ServiceConfiguration)
    case help(String)
    case version(String)
}

/// A command line or an environment variable that cannot be used, said so a person can fix it.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension ServiceOptions {
    /// Reads the command line, then the environment for each option it does not give, over the
    /// defaults; checks every value against its option's kind, then the options against each other.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(ConfigurationError) -> ServiceCommand {
        // Asked for anywhere, the help or the version is the answer, whatever else is wrong.
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help(helpText()) }
        if arguments.contains("--version") { return .version(ServiceConfiguration.version) }
        var given: [String: OptionValue] = [:]
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            let (flag, attached) = split(argument)
            guard let (option, negated) = find(flag) else {
                throw flag.hasPrefix("-") ? ConfigurationError("unknown option '\(flag)'")
                                          : ConfigurationError("unexpected argument '\(argument)': pokedexd takes options only")
            }
            guard option.takesValue else {
                guard attached == nil else { throw ConfigurationError("--\(option.name) takes no value") }
                given[option.name] = .yes(!negated)
                continue
            }
            let text: String
            if let attached {
                text = attached
            } else {
                guard i < arguments.count else { throw ConfigurationError("--\(option.name) needs a value (\(option.valueName))") }
                text = arguments[i]
                i += 1
            }
            let value = try read(option, text, from: "--\(option.name)")
            if case .list(let more) = value, case .list(let earlier)? = given[option.name] {
                given[option.name] = .list(earlier + more)
            } else {
                given[option.name] = value
            }
        }
        var config = ServiceConfiguration()
        for option in all {
            if let value = given[option.name] {
                option.set(&config, value)
            } else if let name = option.environment, let text = environment[name], !text.isEmpty {
                do {
                    option.set(&config, try read(option, text, from: name))
                } catch where lenient(option) {
                    // A variable the service once read loosely (only POKEDEX_VERBOSE=1 meant
                    // anything; an empty host list meant the default) is not a reason to refuse
                    // to start: the default stands, and the journal says why.
                    config.startupWarnings.append("\(error.description): ignored, the default is used")
                }
            }
        }
        try check(config)
        return .run(config)
    }

    /// Whether a bad value of `option`'s variable is ignored rather than refused: the on/off
    /// switches and the host list, which the service has always read loosely.
    static func lenient(_ option: ServiceOption) -> Bool {
        switch option.kind {
        case .toggle, .flag, .hosts: true
        default: false
        }
    }

    /// `--name=value` as the flag and its value; anything else as it is.
    static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<eq]), String(argument[argument.index(after: eq)...]))
    }

    /// The option a flag names, and whether it is a toggle's `--no-` form.
    static func find(_ flag: String) -> (ServiceOption, negated: Bool)? {
        if flag.hasPrefix("--") {
            let name = flag.dropFirst(2)
            if let option = all.first(where: { $0.name == name }) { return (option, false) }
            if name.hasPrefix("no-"), let option = all.first(where: { $0.name == name.dropFirst(3) }), case .toggle = option.kind {
                return (option, true)
            }
        } else if flag.count == 2, flag.hasPrefix("-"), let option = all.first(where: { $0.short != nil && $0.short == flag.last }) {
            return (option, false)
        }
        return nil
    }

    /// `text` as `option`'s kind of value; `source` names where it came from in the error.
    static func read(_ option: ServiceOption, _ text: String, from source: String) throws(ConfigurationError) -> OptionValue {
        switch option.kind {
        case .text:
            guard !text.isEmpty else { throw ConfigurationError("\(source) needs a value (\(option.valueName))") }
            return .text(text)
        case .hosts:
            let hosts = text.split(separator: ",").map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
            guard !hosts.isEmpty else { throw ConfigurationError("\(source) needs a host name, not '\(text)'") }
            return .list(hosts)
        case .count(let range):
            guard let n = Int(text), range.contains(n) else {
                throw ConfigurationError("\(source) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return .count(n)
        case .seconds(let range):
            guard let s = Double(text), s.isFinite, range.contains(s) else {
                throw ConfigurationError("\(source) takes a number of seconds from \(number(range.lowerBound)) to \(number(range.upperBound)), not '\(text)'")
            }
            return .seconds(s)
        case .yesNo, .toggle, .flag:
            switch text.lowercased() {
            case "yes", "y", "true", "on", "1": return .yes(true)
            case "no", "n", "false", "off", "0": return .yes(false)
            default: throw ConfigurationError("\(source) takes yes or no, not '\(text)'")
            }
        }
    }

    /// What one option cannot say alone: the URLs' shapes, and a CA file that can be read.
    static func check(_ config: ServiceConfiguration) throws(ConfigurationError) {
        let api = config.apiURL
        guard let url = URLComponents(string: api), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ConfigurationError("the API URL \(api) is not an http(s) URL")
        }
        if let template = config.spriteURLTemplate {
            guard template.contains("{id}") else { throw ConfigurationError("the sprite URL template \(template) has no {id}") }
            if url.scheme == "https", !template.lowercased().hasPrefix("https://") {
                throw ConfigurationError("the sprite URL template \(template) is not https while the API is: nothing is fetched over plain http then")
            }
        }
        if let ca = config.caFile, !FileManager.default.isReadableFile(atPath: ca) {
            throw ConfigurationError("the CA file \(ca) cannot be read")
        }
    }
}

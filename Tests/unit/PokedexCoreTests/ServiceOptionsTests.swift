@testable import PokedexCore
import XCTest

/// pokedexd's command line and environment, read through the one table of options.
final class ServiceOptionsTests: XCTestCase {
    private func config(_ arguments: [String], _ environment: [String: String] = [:],
                        file: StaticString = #filePath, line: UInt = #line) throws -> ServiceConfiguration {
        guard case .run(let c) = try ServiceOptions.parse(arguments, environment: environment) else {
            XCTFail("not a run", file: file, line: line)
            return ServiceConfiguration()
        }
        return c
    }

    private func refusal(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
        do {
            _ = try ServiceOptions.parse(arguments, environment: environment)
            return nil
        } catch {
            return error.description
        }
    }

    func testNothingGivenIsTheDefaults() throws {
        let c = try config([])
        let d = ServiceConfiguration()
        XCTAssertEqual(c.apiURL, d.apiURL)
        XCTAssertEqual(c.memoryCacheBytes, 32 << 20)
        XCTAssertEqual(c.diskCacheBytes, 256 << 20)
        XCTAssertEqual(c.requestDeadline, 10)
        XCTAssertEqual(c.idleTimeout, 300)
        XCTAssertEqual(c.maxRequests, 64)
        XCTAssertEqual(c.syncParallel, 32)
        XCTAssertEqual(c.maxHostConnections, 6)
        XCTAssertTrue(c.prefetch && c.notifications && c.landlock)
        XCTAssertFalse(c.verbose)
        XCTAssertNil(c.caFile)
        XCTAssertNil(c.folderCheckToken)
    }

    func testTheCommandLineWinsOverTheEnvironmentWhichWinsOverTheDefault() throws {
        let env = ["POKEDEX_TIMEOUT": "4", "POKEDEX_MAX_REQUESTS": "8", "POKEDEX_PREFETCH": "0", "POKEDEX_VERBOSE": "1",
                   "POKEDEX_SPRITE_HOSTS": " a.test, ,b.test ", "POKEDEX_IDLE_TIMEOUT": ""]
        let c = try config(["--timeout", "2.5", "--prefetch"], env)
        XCTAssertEqual(c.requestDeadline, 2.5)
        XCTAssertEqual(c.maxRequests, 8)
        XCTAssertTrue(c.prefetch, "--prefetch beats POKEDEX_PREFETCH=0")
        XCTAssertTrue(c.verbose)
        XCTAssertEqual(c.spriteHosts, ["a.test", "b.test"])
        XCTAssertEqual(c.idleTimeout, 300, "an empty variable is not set")
        XCTAssertEqual(try config(["--sprite-host", "x.test", "--sprite-host=y.test"], env).spriteHosts, ["x.test", "y.test"])
        XCTAssertFalse(try config(["--no-prefetch"]).prefetch)
        XCTAssertTrue(try config(["-v"]).verbose)
        XCTAssertFalse(try config(["--notify=NO"]).notifications)
        XCTAssertEqual(try config(["--memory-cache-mib=4"]).memoryCacheBytes, 4 << 20)
        XCTAssertEqual(try config(["--api-url", "http://127.0.0.1:8080/api/v2//"]).apiURL, "http://127.0.0.1:8080/api/v2")
        XCTAssertEqual(try config(["--check-folders", "t-1"]).folderCheckToken, "t-1")
        XCTAssertEqual(try config(["--cache-dir", "/a/./b/../c"]).cacheDirectory, "/a/c")
    }

    func testEveryRefusalNamesWhatAndWhy() {
        XCTAssertEqual(refusal(["--timeout", "abc"]), "--timeout takes a number of seconds from 0.001 to 31536000, not 'abc'")
        XCTAssertEqual(refusal(["--timeout", "nan"]), "--timeout takes a number of seconds from 0.001 to 31536000, not 'nan'")
        XCTAssertEqual(refusal(["--timeout", "inf"]), "--timeout takes a number of seconds from 0.001 to 31536000, not 'inf'")
        XCTAssertEqual(refusal(["--idle-timeout=-1"]), "--idle-timeout takes a number of seconds from 0 to 31536000, not '-1'")
        XCTAssertEqual(refusal([], ["POKEDEX_MAX_REQUESTS": "0"]), "POKEDEX_MAX_REQUESTS takes a whole number from 1 to 1024, not '0'")
        XCTAssertEqual(refusal(["--memory-cache-mib", "99999999999999999999"]),
                       "--memory-cache-mib takes a whole number from 1 to 1048576, not '99999999999999999999'")
        XCTAssertEqual(refusal(["--no-prefetch=maybe"]), "--prefetch takes no value")
        XCTAssertEqual(refusal(["--landlock", "perhaps"]), "--landlock takes yes or no, not 'perhaps'")
        XCTAssertEqual(refusal(["--bogus"]), "unknown option '--bogus'")
        XCTAssertEqual(refusal(["--no-verbose"]), "unknown option '--no-verbose'")
        XCTAssertEqual(refusal(["list"]), "unexpected argument 'list': pokedexd takes options only")
        XCTAssertEqual(refusal(["--verbose=yes"]), "--verbose takes no value")
        XCTAssertEqual(refusal(["--api-url"]), "--api-url needs a value (URL)")
        XCTAssertEqual(refusal(["--api-url="]), "--api-url needs a value (URL)")
        XCTAssertEqual(refusal(["--sprite-host", ","]), "--sprite-host needs a host name, not ','")
        XCTAssertEqual(refusal(["--api-url", "ftp://x"]), "the API URL ftp://x is not an http(s) URL")
        XCTAssertEqual(refusal(["--sprite-url-template", "https://s.test/x.png"]), "the sprite URL template https://s.test/x.png has no {id}")
        XCTAssertNotNil(refusal(["--sprite-url-template", "http://s.test/{id}.png"]), "plain http beside an https API")
        XCTAssertNil(refusal(["--api-url", "http://a.test/api", "--sprite-url-template", "http://s.test/{id}.png"]))
        XCTAssertEqual(refusal(["--ca-file", "/nonexistent/ca.pem"]), "the CA file /nonexistent/ca.pem cannot be read")
    }

    func testHelpAndVersionComeFirst() throws {
        guard case .help(let text) = try ServiceOptions.parse(["--timeout", "abc", "--help"], environment: [:]) else {
            return XCTFail("no help")
        }
        XCTAssertTrue(text.hasPrefix("OVERVIEW: "))
        guard case .version(let v) = try ServiceOptions.parse(["--version"], environment: [:]) else { return XCTFail("no version") }
        XCTAssertEqual(v, ServiceConfiguration.version)
    }

    /// Every option is in the help with its variable and its default, once, and the page fits 80 columns.
    func testTheHelpShowsEachOptionItsVariableAndDefault() {
        let text = ServiceOptions.helpText()
        for line in text.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 80, String(line))
        }
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in ServiceOptions.all {
            let flags = ServiceOptions.flags(option)
            XCTAssertEqual(flat.components(separatedBy: flags + " ").count - 1, option.hidden ? 0 : 1, flags)
            guard !option.hidden else { continue }
            if let env = option.environment { XCTAssertTrue(flat.contains("[env: \(env)"), env) }
            if let shown = option.defaultText { XCTAssertTrue(flat.contains("(default: \(shown))"), shown) }
        }
        XCTAssertFalse(flat.contains("check-folders"))
    }

    /// What the help shows as a default, given back, changes nothing: the help tells the truth.
    func testEachDefaultShownReadsBackAsTheDefault() throws {
        let documented = ServiceOptions.documented
        for option in ServiceOptions.all {
            guard let shown = option.defaultText, !shown.contains("$") else { continue }
            let arguments: [String]
            switch option.kind {
            case .toggle, .flag: arguments = shown == "yes" ? ["--\(option.name)"] : []
            default: arguments = ["--\(option.name)", shown]
            }
            let c = try config(arguments)
            XCTAssertEqual(option.shown(c), option.shown(documented), option.name)
        }
    }

    /// What the service once read loosely from its environment does not stop it now: a bad
    /// switch or an empty host list leaves the default, and says so; a bad number still refuses.
    func testLooseVariablesAreIgnoredWithAWarningNotRefused() throws {
        let c = try config([], ["POKEDEX_VERBOSE": "2", "POKEDEX_PREFETCH": "maybe", "POKEDEX_SPRITE_HOSTS": " , "])
        XCTAssertFalse(c.verbose)
        XCTAssertTrue(c.prefetch)
        XCTAssertEqual(c.spriteHosts, ServiceConfiguration.defaultSpriteHosts)
        XCTAssertEqual(c.startupWarnings.count, 3, "\(c.startupWarnings)")
        XCTAssertTrue(c.startupWarnings.contains("POKEDEX_VERBOSE takes yes or no, not '2': ignored, the default is used"), "\(c.startupWarnings)")
        XCTAssertNotNil(refusal([], ["POKEDEX_TIMEOUT": "soon"]), "a number that is not one still refuses")
        XCTAssertNotNil(refusal(["--verbose=2"]), "the command line is read strictly")
        XCTAssertEqual(try config([], ["POKEDEX_TIMEOUT": "7200", "POKEDEX_MAX_HOST_CONNECTIONS": "512"]).requestDeadline, 7200,
                       "values the service always took still start it")
    }
}

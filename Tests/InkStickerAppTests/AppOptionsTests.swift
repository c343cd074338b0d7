import Foundation
import InkStickerApp
import Testing

/// `inksticker serve` options from the environment and the command line.
@Suite struct AppOptionsTests {
    @Test func aVariableWhoseOptionIsGivenIsNotRead() throws {
        // A platform may set INKSTICKER_PORT=tcp://… for a service of that name.
        let environment = ["INKSTICKER_PORT": "tcp://10.0.0.7:8080", "INKSTICKER_HOST": "0.0.0.0"]
        let configuration = try AppOptions.parse(arguments: ["--port", "18190"], environment: environment)
        #expect(configuration.server.port == 18190)
        #expect(configuration.server.host == "0.0.0.0")
        #expect(try AppOptions.parse(arguments: ["--port=18191"], environment: environment).server.port == 18191)
        // Read, a bad value names the variable that holds it.
        let error = try #require(throws: OptionError.self) { try AppOptions.parse(arguments: [], environment: environment) }
        #expect(error.description.hasPrefix("INKSTICKER_PORT: "), "\(error)")
    }

    @Test func eventsAreKeptThirtyDaysUnlessToldOtherwise() throws {
        #expect(try AppOptions.parse(arguments: [], environment: [:]).eventRetentionDays == 30)
        #expect(try AppOptions.parse(arguments: ["--keep-events-days", "0"], environment: [:]).eventRetentionDays == 0)
        #expect(try AppOptions.parse(arguments: [], environment: ["INKSTICKER_KEEP_EVENTS_DAYS": "7.5"]).eventRetentionDays == 7.5)
        for bad in ["-1", "forever", "40000"] {
            #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--keep-events-days", bad], environment: [:]) }
        }
    }

    @Test func trustedProxiesGivenSeveralTimesAddUp() throws {
        let configuration = try AppOptions.parse(arguments: ["--trusted-proxy", "10.0.0.1", "--trusted-proxy", "10.0.0.2, ::1"],
                                                 environment: ["INKSTICKER_TRUSTED_PROXIES": "192.0.2.9"])
        #expect(configuration.trustedProxies == ["10.0.0.1", "10.0.0.2", "::1"])
        #expect(try AppOptions.parse(arguments: [], environment: ["INKSTICKER_TRUSTED_PROXIES": "192.0.2.9"]).trustedProxies
                == ["192.0.2.9"])
    }

    @Test func aModelsDirectoryGivenIsTakenFromTheCurrentDirectory() throws {
        let here = FileManager.default.currentDirectoryPath
        #expect(try AppOptions.parse(arguments: ["--models", "mine"], environment: [:]).modelsDirectory == here + "/mine")
        #expect(try AppOptions.parse(arguments: [], environment: ["INKSTICKER_MODELS": "theirs"]).modelsDirectory == here + "/theirs")
        #expect(try AppOptions.parse(arguments: ["--models", "/srv/models"], environment: [:]).modelsDirectory == "/srv/models")
        // Unset, the default is looked up beside the migrations when the service starts.
        #expect(try AppOptions.parse(arguments: [], environment: [:]).modelsDirectory == "./Models")
    }
}

/// A minimal command-line reader: `--name value` options, `--flag` switches and positionals.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// `valued` names the options that take a value; every other `--name` is a switch.
    init(_ arguments: some Sequence<String>, valued: Set<String>) throws(RenderError) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            let name = String(argument.dropFirst(2))
            if valued.contains(name) {
                guard let value = iterator.next() else { throw RenderError("\(argument) needs a value") }
                values[name] = value
            } else {
                flags.insert(name)
            }
        }
    }

    func string(_ name: String) -> String? { values[name] }

    func has(_ name: String) -> Bool { flags.contains(name) }

    func int(_ name: String, default fallback: Int) throws(RenderError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text) else { throw RenderError("--\(name) expects an integer, got '\(text)'") }
        return value
    }

    func double(_ name: String, default fallback: Double) throws(RenderError) -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text) else { throw RenderError("--\(name) expects a number, got '\(text)'") }
        return value
    }
}

/// A usage or input error: printed, then the tool exits with status 2.
struct RenderError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

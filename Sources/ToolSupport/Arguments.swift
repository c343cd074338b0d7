/// A minimal command-line reader: `--name value` options, `--flag` switches and positionals.
public struct Arguments {
    public private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// `valued` names the options that take a value; every other `--name` is a switch.
    public init(_ arguments: some Sequence<String>, valued: Set<String>) throws(ToolError) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            let name = String(argument.dropFirst(2))
            if valued.contains(name) {
                guard let value = iterator.next() else { throw ToolError("\(argument) needs a value") }
                values[name] = value
            } else {
                flags.insert(name)
            }
        }
    }

    public func string(_ name: String) -> String? { values[name] }

    public func has(_ name: String) -> Bool { flags.contains(name) }

    public func int(_ name: String, default fallback: Int) throws(ToolError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text) else { throw ToolError("--\(name) expects an integer, got '\(text)'") }
        return value
    }

    public func double(_ name: String, default fallback: Double) throws(ToolError) -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text) else { throw ToolError("--\(name) expects a number, got '\(text)'") }
        return value
    }
}

/// A usage or input error: printed, then the tool exits with status 2.
public struct ToolError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
